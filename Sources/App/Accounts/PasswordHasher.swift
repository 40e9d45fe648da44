import HummingbirdBcrypt
import NIOPosix

/// bcrypt with a configurable cost (12 in production, 4 in tests). Hashing takes tens of
/// milliseconds by design, so it runs on NIO's pool for blocking work rather than on Swift's
/// cooperative thread pool, which serves every other request.
struct PasswordHasher: Sendable {
    let cost: UInt8
    /// A hash of nothing in particular, checked when the email is unknown.
    private let dummyHash: String

    init(cost: UInt8) {
        self.cost = cost
        dummyHash = Bcrypt.hash(SecretToken.generate(), cost: cost)
    }

    static let minimumLength = 10

    func hash(_ password: String) async -> String {
        let cost = cost
        return await offPool { Bcrypt.hash(password, cost: cost) }
    }

    /// False for a password holding a NUL whatever the hash: bcrypt reads only up to the
    /// first NUL, so "secret\0anything" would otherwise match "secret".
    func verify(_ password: String, against hash: String) async -> Bool {
        let matches = await offPool { Bcrypt.verify(password, hash: hash) }
        return matches && !password.unicodeScalars.contains("\0")
    }

    /// Spends the same time as a real check, so an unknown email answers as slowly as a known one.
    func verifyAgainstNothing(_ password: String) async {
        _ = await verify(password, against: dummyHash)
    }

    private func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        // The singleton pool is never shut down, so `runIfActive` cannot throw here; should it
        // ever, the work still runs, on the caller's thread.
        (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
    }
}
