import COpenSSL
import Foundation

/// A PKCS#10 certificate request as a device sends it inside SCEP: who it asks to be, the
/// challenge it proves enrollment with, and its public key. Made only from a request whose
/// signature matches its own key, so the device holds the private key it asks a certificate for.
public struct CertificateRequest: Sendable, Equatable {
    public let der: [UInt8]
    /// RFC 2253, as in `CN=device,O=scep-client`.
    public let subject: String
    /// The PKCS#9 challengePassword attribute (the SCEP payload's `Challenge`); nil when absent.
    public let challengePassword: String?
    /// The DER SubjectPublicKeyInfo: compare it with an issued certificate's to see one key.
    public let publicKeyDER: [UInt8]
    public let publicKeyBits: Int

    /// Reads one DER request and checks its self-signature.
    public init(der: [UInt8]) throws(CertificateAuthorityError) {
        guard let request = OpenSSLBytes.decoded(der, { d2i_X509_REQ(nil, $0, $1) }, free: { X509_REQ_free($0) }) else {
            throw .invalidRequest
        }
        defer { X509_REQ_free(request) }
        guard let key = X509_REQ_get_pubkey(request) else { ERR_clear_error(); throw .invalidRequest }
        defer { EVP_PKEY_free(key) }
        guard X509_REQ_verify(request, key) == 1 else { ERR_clear_error(); throw .requestSignatureInvalid }
        guard let keyDER = X509Facts.publicKeyDER(key) else { throw .invalidRequest }
        self.der = der
        subject = X509Facts.name(X509_REQ_get_subject_name(request))
        challengePassword = Self.challenge(of: request)
        publicKeyDER = keyDER
        publicKeyBits = Int(EVP_PKEY_get_bits(key))
    }

    /// The attribute is a SET of one DirectoryString; clients use PrintableString or
    /// UTF8String (and old ones T61 or BMP), all of which OpenSSL turns into UTF-8.
    private static func challenge(of request: OpaquePointer) -> String? {
        let index = X509_REQ_get_attr_by_NID(request, NID_pkcs9_challengePassword, -1)
        guard index >= 0, let attribute = X509_REQ_get_attr(request, index),
              let value = X509_ATTRIBUTE_get0_type(attribute, 0) else { return nil }
        let stringTypes = [V_ASN1_PRINTABLESTRING, V_ASN1_UTF8STRING, V_ASN1_IA5STRING, V_ASN1_T61STRING, V_ASN1_BMPSTRING]
        guard stringTypes.contains(value.pointee.type), let string = value.pointee.value.asn1_string else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&output, string)
        guard length >= 0, let output else { ERR_clear_error(); return nil }
        defer { copenssl_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    /// The request as OpenSSL holds it, freed after `body`.
    func withOpenSSL<T>(_ body: (OpaquePointer) throws(CertificateAuthorityError) -> T) throws(CertificateAuthorityError) -> T {
        guard let request = OpenSSLBytes.decoded(der, { d2i_X509_REQ(nil, $0, $1) }, free: { X509_REQ_free($0) }) else {
            throw .invalidRequest
        }
        defer { X509_REQ_free(request) }
        return try body(request)
    }
}
