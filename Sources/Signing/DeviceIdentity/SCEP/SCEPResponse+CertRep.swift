import COpenSSL
import Foundation

extension SCEPResponse {
    /// The signed CertRep around `content` (an EnvelopedData, or nothing on failure).
    static func certRep(
        content: [UInt8], status: String, failInfo: SCEPFailInfo?, for request: SCEPRequest, authority: CertificateAuthority
    ) throws(SCEPError) -> [UInt8] {
        guard let nonce = OpenSSLBytes.random(16) else { throw .failed(SigningError.openSSLErrors()) }
        var attributes: [(SCEPAttribute, Int32, [UInt8])] = [
            (.messageType, V_ASN1_PRINTABLESTRING, Array(SCEPMessageType.certRep.rawValue.utf8)),
            (.pkiStatus, V_ASN1_PRINTABLESTRING, Array(status.utf8)),
            (.transactionID, V_ASN1_PRINTABLESTRING, Array(request.transactionID.utf8)),
            (.recipientNonce, V_ASN1_OCTET_STRING, request.senderNonce),
            (.senderNonce, V_ASN1_OCTET_STRING, nonce),
        ]
        if let failInfo { attributes.append((.failInfo, V_ASN1_PRINTABLESTRING, Array(failInfo.rawValue.utf8))) }
        return try authority.withOpenSSL(SCEPError.failed("the CA could not be read")) { (certificate, key) throws(SCEPError) in
            try sign(content, attributes: attributes, certificate: certificate, key: key)
        }
    }

    /// SignedData over `content` as type `data`, with contentType, signingTime and
    /// messageDigest (added by OpenSSL) and the SCEP attributes, the signer certificate included.
    private static func sign(
        _ content: [UInt8], attributes: [(SCEPAttribute, Int32, [UInt8])], certificate: OpaquePointer, key: OpaquePointer
    ) throws(SCEPError) -> [UInt8] {
        let flags = PKCS7_BINARY | PKCS7_NOSMIMECAP
        guard let p7 = PKCS7_new() else { throw .failed("out of memory") }
        defer { PKCS7_free(p7) }
        guard PKCS7_set_type(p7, NID_pkcs7_signed) == 1, PKCS7_content_new(p7, NID_pkcs7_data) == 1,
              let info = PKCS7_sign_add_signer(p7, certificate, key, EVP_sha256(), flags)
        else { throw .failed(SigningError.openSSLErrors()) }
        for (attribute, tag, bytes) in attributes {
            guard attribute.nid != NID_undef, let value = ASN1_STRING_type_new(tag) else { throw .failed("out of memory") }
            // On success the attribute owns the value; otherwise it is ours to free.
            guard ASN1_STRING_set(value, bytes, Int32(bytes.count)) == 1,
                  PKCS7_add_signed_attribute(info, attribute.nid, tag, UnsafeMutableRawPointer(value)) == 1
            else { ASN1_STRING_free(value); throw .failed(SigningError.openSSLErrors()) }
        }
        guard let input = OpenSSLBytes.bio(holding: content) else { throw .failed("out of memory") }
        defer { BIO_free(input) }
        guard PKCS7_final(p7, input, flags) == 1, let der = PKCS7Reading.encode(p7) else { throw .failed(SigningError.openSSLErrors()) }
        return der
    }
}
