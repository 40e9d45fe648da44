import Foundation
import Signing

/// Random secrets handed to browsers and scripts (session cookies, CSRF tokens, API tokens),
/// and the digests we store instead of them.
enum SecretToken {
    /// 32 random bytes as URL-safe base64 without padding: safe in cookies, forms and headers.
    static func generate(byteCount: Int = 32) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<byteCount).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Hex SHA-256: tokens are long and random, so a fast digest is enough (unlike passwords).
    static func digest(_ token: String) -> String {
        SHA256Digest.hex(of: token)
    }

    /// Compares without stopping at the first difference, so timing tells nothing.
    static func constantTimeEquals(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8), b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// A password people can type from a printout: 4 groups of 5 letters and digits, with
    /// look-alike characters left out (about 100 bits).
    static func readablePassword() -> String {
        let alphabet = Array("abcdefghjkmnpqrstuvwxyzACDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        let groups = (0..<4).map { _ in
            String((0..<5).map { _ in alphabet.randomElement(using: &generator)! })
        }
        return groups.joined(separator: "-")
    }
}
