import COpenSSL
import Foundation

extension PushCertificate {
    /// Reads a PEM file holding the certificate and its unencrypted private key, in any order.
    /// When it holds several certificates (a chain), the one the key belongs to is used.
    public static func read(pem: [UInt8]) throws(PushCertificateError) -> PushCertificate {
        var certificates: [OpaquePointer] = [], keys: [OpaquePointer] = []
        defer { certificates.forEach { X509_free($0) }; keys.forEach { EVP_PKEY_free($0) } }
        var encryptedKey = false
        for (label, block) in blocks(String(decoding: pem, as: UTF8.self)) {
            if label == "CERTIFICATE" {
                if let certificate = X509Facts.certificate(pem: block) { certificates.append(certificate) }
            } else if label.hasSuffix("PRIVATE KEY") {
                if label.hasPrefix("ENCRYPTED") || block.contains("Proc-Type: 4,ENCRYPTED") { encryptedKey = true; continue }
                if let key = X509Facts.privateKey(pem: block) { keys.append(key) }
            }
        }
        guard let first = certificates.first else { throw .noCertificate }
        guard !keys.isEmpty else { throw encryptedKey ? .privateKeyEncrypted : .noPrivateKey }
        for key in keys {
            if let certificate = certificates.first(where: { X509_check_private_key($0, key) == 1 }) {
                ERR_clear_error()
                return try PushCertificate(certificate: certificate, key: key)
            }
        }
        ERR_clear_error()
        return try PushCertificate(certificate: first, key: keys[0])  // throws keyDoesNotMatchCertificate
    }

    /// The PEM blocks of `text` with their labels (`CERTIFICATE`, `PRIVATE KEY`, …), in order.
    static func blocks(_ text: String) -> [(label: String, block: String)] {
        var found: [(String, String)] = []
        var rest = text[...]
        while let begin = rest.range(of: "-----BEGIN ") {
            guard let labelEnd = rest[begin.upperBound...].range(of: "-----") else { break }
            let label = String(rest[begin.upperBound..<labelEnd.lowerBound])
            guard let end = rest[labelEnd.upperBound...].range(of: "-----END \(label)-----") else { break }
            found.append((label, String(rest[begin.lowerBound..<end.upperBound]) + "\n"))
            rest = rest[end.upperBound...]
        }
        return found
    }
}
