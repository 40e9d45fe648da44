import COpenSSL

/// Reading inside OpenSSL's PKCS7 structures from hostile bytes: each step checks the type
/// before following a pointer, and answers nil rather than crashing.
enum PKCS7Reading {
    /// One DER PKCS7, nothing after it.
    static func decode(_ der: [UInt8]) -> UnsafeMutablePointer<PKCS7>? {
        OpenSSLBytes.decoded(der, { d2i_PKCS7(nil, $0, $1) }, free: { PKCS7_free($0) })
    }

    static func encode(_ p7: UnsafeMutablePointer<PKCS7>) -> [UInt8]? { OpenSSLBytes.encoded { i2d_PKCS7(p7, $0) } }

    /// The only signer info of a SignedData; nil when there are none or several.
    static func onlySigner(of p7: UnsafeMutablePointer<PKCS7>) -> UnsafeMutablePointer<PKCS7_SIGNER_INFO>? {
        guard copenssl_pkcs7_is_signed(p7) == 1, let infos = PKCS7_get_signer_info(p7), OPENSSL_sk_num(infos) == 1,
              let info = OPENSSL_sk_value(infos, 0) else { return nil }
        return info.assumingMemoryBound(to: PKCS7_SIGNER_INFO.self)
    }

    /// The DER of the certificate (among those the message carries) that made the only signature.
    static func signerCertificateDER(of p7: UnsafeMutablePointer<PKCS7>) -> [UInt8]? {
        guard let signers = PKCS7_get0_signers(p7, nil, 0) else { ERR_clear_error(); return nil }
        defer { OPENSSL_sk_free(signers) }
        guard OPENSSL_sk_num(signers) == 1, let certificate = OPENSSL_sk_value(signers, 0) else { return nil }
        return X509Facts.der(OpaquePointer(certificate))
    }

    /// A signed attribute's bytes when it has the ASN.1 type `tag` (e.g. `V_ASN1_PRINTABLESTRING`).
    static func attribute(_ attribute: SCEPAttribute, tag: Int32, of info: UnsafeMutablePointer<PKCS7_SIGNER_INFO>) -> [UInt8]? {
        guard attribute.nid != NID_undef, let value = PKCS7_get_signed_attribute(info, attribute.nid),
              value.pointee.type == tag else { return nil }
        return OpenSSLBytes.bytes(of: value.pointee.value.asn1_string)
    }

    /// The content-encryption algorithm of an EnvelopedData, e.g. `NID_aes_128_cbc`.
    static func cipherNID(of p7: UnsafeMutablePointer<PKCS7>) -> Int32 {
        guard copenssl_pkcs7_is_enveloped(p7) == 1, let envelope = p7.pointee.d.enveloped,
              let content = envelope.pointee.enc_data, let algorithm = content.pointee.algorithm else { return NID_undef }
        var object: OpaquePointer?
        X509_ALGOR_get0(&object, nil, nil, algorithm)
        return object.map { OBJ_obj2nid($0) } ?? NID_undef
    }
}
