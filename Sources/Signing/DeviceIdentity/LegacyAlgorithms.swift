import COpenSSL

/// Algorithms OpenSSL 3 moved to its legacy provider that real input still uses: Debian's
/// `scepclient` encrypts its SCEP requests with single DES whatever the server offers, and
/// Keychain Access exports `.p12` files with RC2-40. They live in a library context of their
/// own, so the rest of the process keeps OpenSSL's default algorithms; `run` makes it the
/// calling thread's default for one synchronous read of such input. (Nothing is encrypted
/// with these algorithms: answers use AES.)
enum LegacyAlgorithms {
    /// Made once and kept for the process's life; OpenSSL library contexts are thread-safe.
    /// nil when the legacy provider is not installed: legacy input then fails as unreadable.
    nonisolated(unsafe) private static let context: OpaquePointer? = {
        guard let context = OSSL_LIB_CTX_new() else { return nil }
        guard OSSL_PROVIDER_load(context, "default") != nil, OSSL_PROVIDER_load(context, "legacy") != nil else {
            ERR_clear_error()
            OSSL_LIB_CTX_free(context)
            return nil
        }
        return context
    }()

    /// Runs `body` with the legacy-capable context as this thread's default, then restores
    /// the previous one. Objects `body` makes must not outlive it.
    static func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        guard let context else { return try body() }
        let previous = OSSL_LIB_CTX_set0_default(context)
        defer { OSSL_LIB_CTX_set0_default(previous) }
        return try body()
    }
}
