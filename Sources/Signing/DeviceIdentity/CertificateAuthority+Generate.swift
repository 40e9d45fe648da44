import COpenSSL
import Foundation

extension CertificateAuthority {
    /// A new self-signed RSA-2048 CA valid for ten years (devices keep their certificates
    /// that long without re-enrolling). Its key usage allows signing certificates and
    /// revocation lists, and also signing SCEP answers and receiving SCEP requests
    /// (digitalSignature, keyEncipherment), which RFC 8894 clients check.
    public static func generate(
        commonName: String, organisation: String, now: Date = Date()
    ) throws(CertificateAuthorityError) -> CertificateAuthority {
        let failed = CertificateAuthorityError.failed("the CA could not be generated")
        guard let key = copenssl_rsa_generate(2048) else { throw .failed(SigningError.openSSLErrors()) }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw failed }
        defer { X509_free(certificate) }
        guard let name = CertificateBuilder.name([("O", organisation), ("CN", commonName)]) else { throw .failed(SigningError.openSSLErrors()) }
        defer { X509_NAME_free(name) }
        guard CertificateBuilder.start(certificate, subject: name, issuer: name, publicKey: key, now: now, days: 3_652),
              CertificateBuilder.add([
                  (NID_basic_constraints, "critical,CA:TRUE"),
                  (NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature,keyEncipherment"),
                  (NID_subject_key_identifier, "hash"),
              ], to: certificate, issuer: certificate),
              X509_sign(certificate, key, EVP_sha256()) > 0,
              let certificatePEM = X509Facts.pem(certificate), let keyPEM = X509Facts.pem(privateKey: key)
        else { throw .failed(SigningError.openSSLErrors()) }
        return try CertificateAuthority(certificatePEM: certificatePEM, privateKeyPEM: keyPEM, now: now)
    }
}
