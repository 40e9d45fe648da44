import COpenSSL
import Foundation

extension CertificateAuthority {
    /// Issues a device identity certificate for the request's key: not a CA, for signing and
    /// key encipherment, for TLS client authentication (the alternative to `Mdm-Signature`).
    /// The subject is the request's, or `CN=subjectCommonName` when given (so a device cannot
    /// choose its own name). The caller has already checked the request's challenge.
    public func issue(
        _ request: CertificateRequest, subjectCommonName: String? = nil, validFor days: Int = 365, now: Date = Date()
    ) throws(CertificateAuthorityError) -> IssuedCertificate {
        if request.publicKeyBits < 2048 { throw .weakKey(bits: request.publicKeyBits) }
        let unreadable = CertificateAuthorityError.failed("the CA could not be read")
        return try withOpenSSL(unreadable) { (caCertificate, caKey) throws(CertificateAuthorityError) in
            try request.withOpenSSL { (csr) throws(CertificateAuthorityError) in
                try Self.leaf(for: csr, commonName: subjectCommonName, days: days, now: now, issuer: caCertificate, issuerKey: caKey)
            }
        }
    }

    private static func leaf(
        for csr: OpaquePointer, commonName: String?, days: Int, now: Date, issuer: OpaquePointer, issuerKey: OpaquePointer
    ) throws(CertificateAuthorityError) -> IssuedCertificate {
        let failed = { () -> CertificateAuthorityError in .failed(SigningError.openSSLErrors()) }
        guard let publicKey = X509_REQ_get0_pubkey(csr), let certificate = X509_new() else { throw failed() }
        defer { X509_free(certificate) }
        let subject = commonName.map { CertificateBuilder.name([("CN", $0)]) } ?? X509_NAME_dup(X509_REQ_get_subject_name(csr))
        guard let subject else { throw failed() }
        defer { X509_NAME_free(subject) }
        guard CertificateBuilder.start(certificate, subject: subject, issuer: X509_get_subject_name(issuer), publicKey: publicKey,
                                       now: now, days: days),
              CertificateBuilder.add([
                  (NID_basic_constraints, "critical,CA:FALSE"),
                  (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
                  (NID_ext_key_usage, "clientAuth"),
                  (NID_subject_key_identifier, "hash"),
                  (NID_authority_key_identifier, "keyid"),
              ], to: certificate, issuer: issuer),
              X509_sign(certificate, issuerKey, EVP_sha256()) > 0,
              let issued = IssuedCertificate(certificate)
        else { throw failed() }
        return issued
    }
}
