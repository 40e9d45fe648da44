import COpenSSL
import Foundation

/// A SCEP PKIOperation request (RFC 8894 §3.3): a SignedData made with the client's
/// temporary key, over an EnvelopedData encrypted to the console's CA that holds a PKCS#10
/// request. Made only from a message whose signature matches the certificate it carries and
/// whose envelope opens with the CA's key; whether its challenge is right is the caller's call.
public struct SCEPRequest: Sendable, Equatable {
    public let messageType: SCEPMessageType
    /// The client's name for this enrollment; a CertRep must echo it.
    public let transactionID: String
    /// The client's random nonce; a CertRep returns it as `recipientNonce`.
    public let senderNonce: [UInt8]
    /// The certificate that signed the message: a temporary self-signed one for PKCSReq, the
    /// current identity for RenewalReq. The answer is encrypted to it.
    public let signerCertificateDER: [UInt8]
    /// The PKCS#10 request of a PKCSReq or RenewalReq; nil for the other message types.
    public let certificateRequest: CertificateRequest?
    /// The decrypted content (for CertPoll, GetCert and GetCRL, a DER IssuerAndSubject or
    /// IssuerAndSerialNumber).
    public let content: [UInt8]
    /// The cipher the client encrypted with: the answer uses the same, which it can surely open.
    let cipherNID: Int32

    /// Reads and checks a PKIOperation body. Any malformed input throws.
    public static func parse(_ der: [UInt8], authority: CertificateAuthority) throws(SCEPError) -> SCEPRequest {
        guard let p7 = PKCS7Reading.decode(der) else { throw .notAPKIMessage }
        defer { PKCS7_free(p7) }
        guard let info = PKCS7Reading.onlySigner(of: p7), let signer = PKCS7Reading.signerCertificateDER(of: p7) else {
            throw .notAPKIMessage
        }
        let signedContent = try verifiedContent(of: p7)
        guard let type = PKCS7Reading.attribute(.messageType, tag: V_ASN1_PRINTABLESTRING, of: info) else {
            throw .missingAttribute("messageType")
        }
        let typeText = String(decoding: type, as: UTF8.self)
        guard let messageType = SCEPMessageType(rawValue: typeText), messageType != .certRep else { throw .unknownMessageType(typeText) }
        guard let transaction = PKCS7Reading.attribute(.transactionID, tag: V_ASN1_PRINTABLESTRING, of: info), !transaction.isEmpty else {
            throw .missingAttribute("transactionID")
        }
        // RFC 8894 makes nonces 16 bytes; a longer one is harmless, an empty one is no nonce.
        guard let nonce = PKCS7Reading.attribute(.senderNonce, tag: V_ASN1_OCTET_STRING, of: info), (8...64).contains(nonce.count) else {
            throw .missingAttribute("senderNonce")
        }
        let (content, cipher) = try decrypt(signedContent, authority: authority)
        var request: CertificateRequest?
        if messageType.carriesCertificateRequest {
            do { request = try CertificateRequest(der: content) } catch { throw .invalidCertificateRequest(error) }
        }
        return SCEPRequest(messageType: messageType, transactionID: String(decoding: transaction, as: UTF8.self), senderNonce: nonce,
                           signerCertificateDER: signer, certificateRequest: request, content: content, cipherNID: cipher)
    }

    /// Checks the signature with the certificate the message carries, and nothing else: the
    /// temporary certificate is self-signed, so there is no chain to check (`PKCS7_NOVERIFY`).
    private static func verifiedContent(of p7: UnsafeMutablePointer<PKCS7>) throws(SCEPError) -> [UInt8] {
        guard let output = OpenSSLBytes.emptyBIO() else { throw .failed("out of memory") }
        defer { BIO_free(output) }
        guard PKCS7_verify(p7, nil, nil, nil, output, PKCS7_NOVERIFY | PKCS7_BINARY) == 1 else {
            ERR_clear_error()
            throw .signatureInvalid
        }
        return OpenSSLBytes.contents(of: output)
    }

    private static func decrypt(_ envelopeDER: [UInt8], authority: CertificateAuthority) throws(SCEPError) -> ([UInt8], Int32) {
        guard let envelope = PKCS7Reading.decode(envelopeDER) else { throw .notAPKIMessage }
        defer { PKCS7_free(envelope) }
        guard copenssl_pkcs7_is_enveloped(envelope) == 1 else { throw .notAPKIMessage }
        let cipher = PKCS7Reading.cipherNID(of: envelope)
        // scepclient encrypts with single DES (LegacyAlgorithms); the CA key is read inside too,
        // so key and cipher come from one library context.
        let content = try LegacyAlgorithms.run { () throws(SCEPError) in
            try authority.withOpenSSL(SCEPError.failed("the CA could not be read")) { (certificate, key) throws(SCEPError) in
                guard let output = OpenSSLBytes.emptyBIO() else { throw .failed("out of memory") }
                defer { BIO_free(output) }
                guard PKCS7_decrypt(envelope, key, certificate, output, PKCS7_BINARY) == 1 else {
                    ERR_clear_error()
                    throw .notEncryptedToThisAuthority
                }
                return OpenSSLBytes.contents(of: output)
            }
        }
        return (content, cipher)
    }
}
