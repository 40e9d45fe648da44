import COpenSSL
import Foundation

/// An uploaded X.509 certificate, read by OpenSSL: who it names, who issued it, when it is
/// valid, and the SHA-256 of its public key — the value certificate pinning compares, so a
/// certificate renewed with the same key still matches.
public struct CertificateDetails: Sendable, Equatable {
    /// The certificate re-encoded as DER, whatever form it arrived in.
    public let der: [UInt8]
    /// RFC 2253 names, as in `CN=api.example.com,O=Example`.
    public let subject: String
    public let issuer: String
    public let notBefore: Date
    public let notAfter: Date
    /// Base64 of SHA-256 over the DER SubjectPublicKeyInfo (the `pin-sha256` form).
    public let publicKeySHA256: String

    public static let maximumBytes = 65_536

    /// Why an upload is not one certificate.
    public enum Problem: Error, Equatable, Sendable {
        case empty, tooLarge, notACertificate, severalCertificates

        public var message: String {
            switch self {
            case .empty: "The file is empty: choose the server's certificate."
            case .tooLarge: "A certificate file is at most 64 KB."
            case .notACertificate: "The file is not an X.509 certificate in PEM or DER form."
            case .severalCertificates: "The file holds more than one certificate: upload one per file."
            }
        }
    }

    /// Reads one certificate, PEM (`-----BEGIN CERTIFICATE-----`) or DER.
    public static func read(_ bytes: [UInt8]) throws(Problem) -> CertificateDetails {
        if bytes.isEmpty { throw .empty }
        if bytes.count > maximumBytes { throw .tooLarge }
        let text = String(decoding: bytes, as: UTF8.self)
        let certificate: OpaquePointer
        if text.contains("-----BEGIN") {
            if text.components(separatedBy: "-----BEGIN CERTIFICATE-----").count > 2 { throw .severalCertificates }
            guard let read = try? MemoryBIO.reading(bytes, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
                ERR_clear_error()
                throw .notACertificate
            }
            certificate = read
        } else {
            certificate = try readDER(bytes)
        }
        defer { X509_free(certificate) }
        guard let details = details(of: certificate) else { ERR_clear_error(); throw .notACertificate }
        return details
    }

    /// DER must be exactly one certificate: trailing bytes mean something else was uploaded.
    private static func readDER(_ bytes: [UInt8]) throws(Problem) -> OpaquePointer {
        let parsed: (OpaquePointer?, Int) = bytes.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            let certificate = d2i_X509(nil, &cursor, buffer.count)
            let consumed = cursor.map { $0 - buffer.baseAddress! } ?? 0
            return (certificate, consumed)
        }
        guard let certificate = parsed.0 else { ERR_clear_error(); throw .notACertificate }
        guard parsed.1 == bytes.count else { X509_free(certificate); throw .notACertificate }
        return certificate
    }

    private static func details(of certificate: OpaquePointer) -> CertificateDetails? {
        guard let der = encoded({ i2d_X509(certificate, $0) }),
              let key = X509_get_X509_PUBKEY(certificate), let keyDER = encoded({ i2d_X509_PUBKEY(key, $0) }),
              let subject = name(X509_get_subject_name(certificate)), let issuer = name(X509_get_issuer_name(certificate)),
              let notBefore = date(X509_get0_notBefore(certificate)), let notAfter = date(X509_get0_notAfter(certificate))
        else { return nil }
        return CertificateDetails(der: der, subject: subject, issuer: issuer, notBefore: notBefore, notAfter: notAfter,
                                  publicKeySHA256: Data(SHA256Digest.bytes(of: keyDER)).base64EncodedString())
    }

    /// OpenSSL's two-call `i2d_` pattern: the length first, then the bytes.
    private static func encoded(_ encode: (UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?) -> Int32) -> [UInt8]? {
        let length = encode(nil)
        guard length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        let written = bytes.withUnsafeMutableBufferPointer { buffer in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return encode(&cursor)
        }
        return written == length ? bytes : nil
    }

    private static func name(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let bytes = try? MemoryBIO.writing { bio in
            guard X509_NAME_print_ex(bio, name, 0, copenssl_name_print_flags()) >= 0 else { throw SigningError.io("name") }
        }
        return bytes.map { String(decoding: $0, as: UTF8.self) }
    }

    /// ASN.1 times are UTC; `timegm` reads the broken-down time as such.
    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
