import COpenSSL
import Foundation

/// A device identity certificate the CA issued: what SCEP hands back and what the console
/// records to recognise the device's `Mdm-Signature` later.
public struct IssuedCertificate: Sendable, Equatable {
    public let der: [UInt8]
    /// Lower-case hex without separators, as in `4f0a…`.
    public let serialHex: String
    /// RFC 2253, as in `CN=device`.
    public let subject: String
    public let notBefore: Date
    public let notAfter: Date
    /// SHA-256 of the DER certificate, colon-separated upper-case hex.
    public let sha256Fingerprint: String

    init?(_ certificate: OpaquePointer) {
        guard let der = X509Facts.der(certificate) else { return nil }
        self.der = der
        serialHex = X509Facts.serialHex(certificate)
        subject = X509Facts.subject(certificate)
        notBefore = X509Facts.notBefore(certificate)
        notAfter = X509Facts.notAfter(certificate)
        sha256Fingerprint = X509Facts.fingerprint(certificate)
    }
}
