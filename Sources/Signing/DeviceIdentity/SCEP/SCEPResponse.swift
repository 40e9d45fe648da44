import COpenSSL
import Foundation

/// SCEP answers (RFC 8894 §3.3.2): a CertRep signed by the CA with SHA-256, the CA
/// certificate included, echoing the request's transactionID and returning its senderNonce
/// as recipientNonce, with a fresh senderNonce of its own. Served as `application/x-pki-message`.
public enum SCEPResponse {
    /// SUCCESS: the issued certificate in a degenerate PKCS#7, encrypted to the certificate
    /// that signed the request, in the cipher the request itself used.
    public static func success(issued: IssuedCertificate, for request: SCEPRequest, authority: CertificateAuthority) throws(SCEPError) -> [UInt8] {
        let certificates = try degenerateCertificates([issued.der])
        let envelope = try encrypt(certificates, to: request.signerCertificateDER, cipherNID: request.cipherNID)
        return try certRep(content: envelope, status: "0", failInfo: nil, for: request, authority: authority)
    }

    /// FAILURE with the reason; no content.
    public static func failure(_ info: SCEPFailInfo, for request: SCEPRequest, authority: CertificateAuthority) throws(SCEPError) -> [UInt8] {
        try certRep(content: [], status: "2", failInfo: info, for: request, authority: authority)
    }

    /// A degenerate PKCS#7 SignedData (certificates only, no content, no signers): how SCEP
    /// carries an issued certificate, and how `GetCACert` answers with a chain.
    public static func degenerateCertificates(_ ders: [[UInt8]]) throws(SCEPError) -> [UInt8] {
        guard let p7 = PKCS7_new() else { throw .failed("out of memory") }
        defer { PKCS7_free(p7) }
        // The content is type `data` with nothing in it, as `openssl crl2pkcs7 -nocrl` writes.
        guard PKCS7_set_type(p7, NID_pkcs7_signed) == 1, PKCS7_content_new(p7, NID_pkcs7_data) == 1 else {
            throw .failed(SigningError.openSSLErrors())
        }
        for der in ders {
            guard let certificate = X509Facts.certificate(der: der) else { throw .failed("not a DER certificate") }
            defer { X509_free(certificate) }
            guard PKCS7_add_certificate(p7, certificate) == 1 else { throw .failed(SigningError.openSSLErrors()) }
        }
        guard let der = PKCS7Reading.encode(p7) else { throw .failed(SigningError.openSSLErrors()) }
        return der
    }

    private static func encrypt(_ content: [UInt8], to recipientDER: [UInt8], cipherNID: Int32) throws(SCEPError) -> [UInt8] {
        guard let recipient = X509Facts.certificate(der: recipientDER) else { throw .failed("the requester's certificate is unreadable") }
        defer { X509_free(recipient) }
        guard let recipients = OPENSSL_sk_new_null(), let input = OpenSSLBytes.bio(holding: content) else { throw .failed("out of memory") }
        defer { OPENSSL_sk_free(recipients); BIO_free(input) }
        guard OPENSSL_sk_push(recipients, UnsafeRawPointer(recipient)) > 0,
              let envelope = PKCS7_encrypt(recipients, input, cipher(cipherNID), PKCS7_BINARY)
        else { throw .failed("the certificate could not be encrypted to the requester: \(SigningError.openSSLErrors())") }
        defer { PKCS7_free(envelope) }
        guard let der = PKCS7Reading.encode(envelope) else { throw .failed(SigningError.openSSLErrors()) }
        return der
    }

    /// The request's own cipher when it is one SCEP clients use; otherwise AES-128-CBC, the
    /// one RFC 8894's `AES` capability names.
    private static func cipher(_ nid: Int32) -> OpaquePointer? {
        switch nid {
        case NID_aes_256_cbc: EVP_aes_256_cbc()
        case NID_aes_192_cbc: EVP_aes_192_cbc()
        case NID_des_ede3_cbc: EVP_des_ede3_cbc()
        default: EVP_aes_128_cbc()
        }
    }
}
