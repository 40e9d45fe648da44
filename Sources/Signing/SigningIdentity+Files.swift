import COpenSSL
import Foundation

extension SigningIdentity {
    static let certificateFile = "cert.pem"
    static let keyFile = "key.pem"

    /// A new self-signed RSA-2048 certificate, valid for five years, for signing profiles.
    /// Devices show such profiles as "Unverified" but install them.
    public static func generateSelfSigned(commonName: String, organization: String) throws(SigningError) -> SigningIdentity {
        guard let key = copenssl_rsa_generate(2048) else { throw .signingFailed(SigningError.openSSLErrors()) }
        defer { EVP_PKEY_free(key) }
        guard let certificate = X509_new() else { throw .signingFailed("out of memory") }
        defer { X509_free(certificate) }
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw .signingFailed(SigningError.openSSLErrors()) }
        serial[0] &= 0x7F  // a positive serial number
        let number = BN_bin2bn(serial, Int32(serial.count), nil)
        defer { BN_free(number) }
        let name = X509_get_subject_name(certificate)
        guard X509_set_version(certificate, 2) == 1,
              BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil,
              X509_gmtime_adj(X509_getm_notBefore(certificate), -60) != nil,
              X509_gmtime_adj(X509_getm_notAfter(certificate), 5 * 365 * 86_400) != nil,
              X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, commonName, -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, organization, -1, -1, 0) == 1,
              X509_set_issuer_name(certificate, name) == 1,
              X509_set_pubkey(certificate, key) == 1,
              addExtension(NID_basic_constraints, "critical,CA:FALSE", to: certificate),
              addExtension(NID_key_usage, "critical,digitalSignature", to: certificate),
              X509_sign(certificate, key, EVP_sha256()) > 0
        else { throw .signingFailed(SigningError.openSSLErrors()) }
        let certificatePEM: [UInt8], keyPEM: [UInt8]
        do {
            certificatePEM = try MemoryBIO.writing { bio in
                guard PEM_write_bio_X509(bio, certificate) == 1 else { throw SigningError.signingFailed(SigningError.openSSLErrors()) }
            }
            keyPEM = try MemoryBIO.writing { bio in
                guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else {
                    throw SigningError.signingFailed(SigningError.openSSLErrors())
                }
            }
        } catch let error as SigningError { throw error } catch { throw .signingFailed("\(error)") }
        return try SigningIdentity(certificatePEM: String(decoding: certificatePEM, as: UTF8.self),
                                   privateKeyPEM: String(decoding: keyPEM, as: UTF8.self))
    }

    private static func addExtension(_ nid: Int32, _ value: String, to certificate: OpaquePointer) -> Bool {
        guard let ext = X509V3_EXT_conf_nid(nil, nil, nid, value) else { return false }
        defer { X509_EXTENSION_free(ext) }
        return X509_add_ext(certificate, ext, -1) == 1
    }

    /// The identity a console before the database kept it (schema migration 22) wrote to
    /// `directory` (`<data-dir>/signing`): nil when either file is missing, an error when they
    /// are there but do not read or do not belong together.
    public static func load(fromDirectory directory: String) throws(SigningError) -> SigningIdentity? {
        let folder = URL(fileURLWithPath: directory)
        let certificateURL = folder.appendingPathComponent(certificateFile), keyURL = folder.appendingPathComponent(keyFile)
        guard FileManager.default.fileExists(atPath: certificateURL.path), FileManager.default.fileExists(atPath: keyURL.path) else { return nil }
        let certificatePEM: String, keyPEM: String
        do {
            certificatePEM = try String(contentsOf: certificateURL, encoding: .utf8)
            keyPEM = try String(contentsOf: keyURL, encoding: .utf8)
        } catch { throw .io(error.localizedDescription) }
        return try SigningIdentity(certificatePEM: certificatePEM, privateKeyPEM: keyPEM)
    }
}
