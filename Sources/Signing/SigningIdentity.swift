import COpenSSL
import Foundation

/// A certificate and its private key, both PEM, used to sign profiles.
public struct SigningIdentity: Sendable, Equatable {
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// The certificate's subject, as OpenSSL prints it in one line.
    public let subject: String
    public let notAfter: Date
    /// SHA-256 of the DER certificate, colon-separated upper-case hex as `openssl x509 -fingerprint` shows.
    public let sha256Fingerprint: String

    /// Checks that the PEM certificate and key parse and belong together.
    public init(certificatePEM: String, privateKeyPEM: String) throws(SigningError) {
        let certificate = try Self.readCertificate(certificatePEM)
        defer { X509_free(certificate) }
        let key = try Self.readKey(privateKeyPEM)
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else {
            ERR_clear_error()
            throw .keyDoesNotMatchCertificate
        }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        subject = Self.subjectLine(certificate)
        notAfter = Self.notAfter(certificate)
        sha256Fingerprint = Self.fingerprint(certificate)
    }

    static func readCertificate(_ pem: String) throws(SigningError) -> OpaquePointer {
        let certificate: OpaquePointer?
        do { certificate = try MemoryBIO.reading(Array(pem.utf8)) { PEM_read_bio_X509($0, nil, nil, nil) } } catch { throw .invalidCertificate }
        guard let certificate else { ERR_clear_error(); throw .invalidCertificate }
        return certificate
    }

    static func readKey(_ pem: String) throws(SigningError) -> OpaquePointer {
        let key: OpaquePointer?
        do { key = try MemoryBIO.reading(Array(pem.utf8)) { PEM_read_bio_PrivateKey($0, nil, nil, nil) } } catch { throw .invalidPrivateKey }
        guard let key else { ERR_clear_error(); throw .invalidPrivateKey }
        return key
    }

    static func subjectLine(_ certificate: OpaquePointer) -> String {
        guard let line = X509_NAME_oneline(X509_get_subject_name(certificate), nil, 0) else { return "" }
        defer { copenssl_free(line) }
        return String(cString: line)
    }

    private static func notAfter(_ certificate: OpaquePointer) -> Date {
        var days: Int32 = 0, seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, X509_get0_notAfter(certificate)) == 1 else { return Date() }
        return Date().addingTimeInterval(Double(days) * 86_400 + Double(seconds))
    }

    static func fingerprint(_ certificate: OpaquePointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard X509_digest(certificate, EVP_sha256(), &digest, &length) == 1 else { return "" }
        return digest.prefix(Int(length)).map { byte in
            let digits = Array("0123456789ABCDEF")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined(separator: ":")
    }
}
