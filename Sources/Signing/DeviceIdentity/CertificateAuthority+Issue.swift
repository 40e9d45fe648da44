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
        return try withOpenSSL(CertificateAuthorityError.failed("the CA could not be read")) { (caCertificate, caKey) throws(CertificateAuthorityError) in
            try request.withOpenSSL { (csr) throws(CertificateAuthorityError) in
                guard let publicKey = X509_REQ_get0_pubkey(csr), let certificate = X509_new() else { throw .failed(SigningError.openSSLErrors()) }
                defer { X509_free(certificate) }
                let subject: OpaquePointer?
                if let subjectCommonName { subject = CertificateBuilder.name([("CN", subjectCommonName)]) } else { subject = X509_NAME_dup(X509_REQ_get_subject_name(csr)) }
                guard let subject else { throw .failed(SigningError.openSSLErrors()) }
                defer { X509_NAME_free(subject) }
                guard CertificateBuilder.start(certificate, subject: subject, issuer: X509_get_subject_name(caCertificate),
                                               publicKey: publicKey, now: now, days: days),
                      CertificateBuilder.add([
                          (NID_basic_constraints, "critical,CA:FALSE"),
                          (NID_key_usage, "critical,digitalSignature,keyEncipherment"),
                          (NID_ext_key_usage, "clientAuth"),
                          (NID_subject_key_identifier, "hash"),
                          (NID_authority_key_identifier, "keyid"),
                      ], to: certificate, issuer: caCertificate),
                      X509_sign(certificate, caKey, EVP_sha256()) > 0,
                      let issued = IssuedCertificate(certificate)
                else { throw .failed(SigningError.openSSLErrors()) }
                return issued
            }
        }
    }
}
