import COpenSSL
import Foundation

/// The MDM push certificate an admin uploads (issued by Apple's Push Certificates Portal):
/// the TLS client identity for APNs, and the topic every enrollment profile names. A renewal
/// must keep the topic, or every enrolled device is lost; comparing `topic` before replacing
/// the stored certificate is the caller's part.
public struct PushCertificate: Sendable, Equatable {
    /// The subject's UID, as in `com.apple.mgmt.External.<uuid>`: the `apns-topic` header and
    /// the MDM payload's `Topic`.
    public let topic: String
    /// RFC 2253, as in `UID=com.apple.mgmt.External.…,CN=APSP:…,C=US`.
    public let subject: String
    public let notBefore: Date
    public let notAfter: Date
    /// SHA-256 of the DER certificate, colon-separated upper-case hex.
    public let sha256Fingerprint: String
    public let certificatePEM: String
    /// PKCS#8 PEM (`BEGIN PRIVATE KEY`), unencrypted, as the HTTP/2 client reads it.
    public let privateKeyPEM: String

    public static let topicPrefix = "com.apple.mgmt."

    /// Checks that `key` belongs to `certificate` and that it is an MDM push certificate.
    init(certificate: OpaquePointer, key: OpaquePointer) throws(PushCertificateError) {
        guard X509_check_private_key(certificate, key) == 1 else { ERR_clear_error(); throw .keyDoesNotMatchCertificate }
        guard let topic = X509Facts.attribute(NID_userId, of: X509_get_subject_name(certificate)), topic.hasPrefix(Self.topicPrefix),
              topic.count > Self.topicPrefix.count
        else { throw .notAnMDMPushCertificate }
        guard let certificatePEM = X509Facts.pem(certificate), let keyPEM = X509Facts.pem(privateKey: key) else {
            throw .failed(SigningError.openSSLErrors())
        }
        self.topic = topic
        subject = X509Facts.subject(certificate)
        notBefore = X509Facts.notBefore(certificate)
        notAfter = X509Facts.notAfter(certificate)
        sha256Fingerprint = X509Facts.fingerprint(certificate)
        self.certificatePEM = certificatePEM
        privateKeyPEM = keyPEM
    }
}
