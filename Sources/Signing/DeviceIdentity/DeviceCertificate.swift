import COpenSSL
import Foundation

/// A device identity certificate as the console records and compares it: what SCEP issued,
/// and what a device's `Mdm-Signature` turned out to be signed with.
public struct DeviceCertificate: Sendable, Equatable {
    public let der: [UInt8]
    /// Lower-case hex without separators, as in `4f0a…`: the key the console stores it by.
    public let serialHex: String
    /// RFC 2253, as in `CN=device`.
    public let subject: String
    public let commonName: String?
    public let notBefore: Date
    public let notAfter: Date
    /// SHA-256 of the DER certificate, colon-separated upper-case hex.
    public let sha256Fingerprint: String

    init?(_ certificate: OpaquePointer) {
        guard let der = X509Facts.der(certificate) else { return nil }
        self.der = der
        serialHex = X509Facts.serialHex(certificate)
        subject = X509Facts.subject(certificate)
        commonName = X509Facts.attribute(NID_commonName, of: X509_get_subject_name(certificate))
        notBefore = X509Facts.notBefore(certificate)
        notAfter = X509Facts.notAfter(certificate)
        sha256Fingerprint = X509Facts.fingerprint(certificate)
    }

    /// The certificate `der` holds; nil when it holds none.
    public init?(der: [UInt8]) {
        guard let certificate = X509Facts.certificate(der: der) else { return nil }
        defer { X509_free(certificate) }
        self.init(certificate)
    }
}

/// The certificate the authority issued through SCEP.
public typealias IssuedCertificate = DeviceCertificate
/// The certificate a device signed a request with, once the signature and its issuer checked out.
public typealias SignerCertificate = DeviceCertificate
