import COpenSSL
import Foundation

/// The console's own device CA: it issues each enrolled device its identity certificate over
/// SCEP, receives the SCEP requests devices encrypt to it, and is the one issuer whose
/// certificates the `Mdm-Signature` check accepts. Kept as PEM so it stores as text.
public struct CertificateAuthority: Sendable, Equatable {
    public let certificatePEM: String
    public let privateKeyPEM: String
    /// The certificate as DER: what `GetCACert` answers.
    public let certificateDER: [UInt8]
    /// RFC 2253, as in `CN=Payload Console Device CA,O=Example`.
    public let subject: String
    public let notBefore: Date
    public let notAfter: Date
    /// SHA-256 of the DER certificate, colon-separated upper-case hex (`openssl x509 -fingerprint`).
    public let sha256Fingerprint: String

    /// An admin's own CA, uploaded as PEM: the key must be RSA and belong to the certificate,
    /// the certificate must be a CA and valid at `now`.
    public init(certificatePEM: String, privateKeyPEM: String, now: Date = Date()) throws(CertificateAuthorityError) {
        guard let certificate = X509Facts.certificate(pem: certificatePEM) else { throw .invalidCertificate }
        defer { X509_free(certificate) }
        guard let key = X509Facts.privateKey(pem: privateKeyPEM) else { throw .invalidPrivateKey }
        defer { EVP_PKEY_free(key) }
        guard X509_check_private_key(certificate, key) == 1 else { ERR_clear_error(); throw .keyDoesNotMatchCertificate }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { throw .notRSA }
        // X509_get_extension_flags also caches the extensions; EXFLAG_CA is basicConstraints CA:TRUE.
        guard X509_get_extension_flags(certificate) & UInt32(EXFLAG_CA) != 0 else { throw .notACertificateAuthority }
        var time = OpenSSLBytes.time(now)
        guard X509_cmp_time(X509_get0_notAfter(certificate), &time) > 0 else { throw .expired(notAfter: X509Facts.notAfter(certificate)) }
        guard X509_cmp_time(X509_get0_notBefore(certificate), &time) < 0 else {
            throw .notYetValid(notBefore: X509Facts.notBefore(certificate))
        }
        guard let der = X509Facts.der(certificate) else { throw .failed(SigningError.openSSLErrors()) }
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        certificateDER = der
        subject = X509Facts.subject(certificate)
        notBefore = X509Facts.notBefore(certificate)
        notAfter = X509Facts.notAfter(certificate)
        sha256Fingerprint = X509Facts.fingerprint(certificate)
    }

    /// Runs `body` with the CA's certificate and key as OpenSSL objects, freed afterwards.
    /// Both were checked when this value was made, so reading them again only fails when
    /// memory runs out.
    func withOpenSSL<T, E: Error>(
        _ failure: E, _ body: (_ certificate: OpaquePointer, _ key: OpaquePointer) throws(E) -> T
    ) throws(E) -> T {
        guard let certificate = X509Facts.certificate(der: certificateDER) else { throw failure }
        defer { X509_free(certificate) }
        guard let key = X509Facts.privateKey(pem: privateKeyPEM) else { throw failure }
        defer { EVP_PKEY_free(key) }
        return try body(certificate, key)
    }
}
