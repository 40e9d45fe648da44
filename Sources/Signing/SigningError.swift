import COpenSSL

/// Why a signing identity or a signature was refused, in words an admin can act on.
public enum SigningError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidCertificate
    case invalidPrivateKey
    case keyDoesNotMatchCertificate
    case signingFailed(String)
    case verificationFailed(String)
    /// The bytes are neither a property list nor CMS signed data: no profile at all, which is
    /// not the same as a profile whose signature is bad.
    case notAProfile(String)
    case io(String)

    public var description: String {
        switch self {
        case .invalidCertificate: "The certificate is not a PEM-encoded X.509 certificate."
        case .invalidPrivateKey: "The private key is not a PEM-encoded, unencrypted private key."
        case .keyDoesNotMatchCertificate: "The private key does not belong to this certificate."
        case .signingFailed(let detail): "The profile could not be signed: \(detail)"
        case .verificationFailed(let detail): "The signature is not valid: \(detail)"
        case .notAProfile(let detail): "This file is not a profile: \(detail)"
        case .io(let detail): "The signing files could not be read or written: \(detail)"
        }
    }

    /// OpenSSL's queued error messages, oldest first, and clears the queue.
    static func openSSLErrors() -> String {
        var messages: [String] = []
        while true {
            let code = ERR_get_error()
            if code == 0 { break }
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            messages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return messages.isEmpty ? "unknown OpenSSL error" : messages.joined(separator: "; ")
    }
}
