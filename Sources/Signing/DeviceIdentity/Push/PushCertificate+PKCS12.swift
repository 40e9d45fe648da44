import COpenSSL
import Foundation

extension PushCertificate {
    /// Reads a PKCS#12 file (what Keychain Access exports) with its password. Keychain's
    /// files use RC2-40 and 3DES, which OpenSSL 3 keeps in its legacy provider.
    public static func read(pkcs12: [UInt8], password: String) throws(PushCertificateError) -> PushCertificate {
        guard let p12 = OpenSSLBytes.decoded(pkcs12, { d2i_PKCS12(nil, $0, $1) }, free: { PKCS12_free($0) }) else { throw .notPKCS12 }
        defer { PKCS12_free(p12) }
        return try LegacyAlgorithms.run { () throws(PushCertificateError) in
            // The MAC says whether the password is right before anything is decrypted; an
            // empty password may have been applied as "no password", so both are tried.
            if PKCS12_mac_present(p12) == 1 {
                let opens = PKCS12_verify_mac(p12, password, Int32(password.utf8.count)) == 1
                    || (password.isEmpty && PKCS12_verify_mac(p12, nil, 0) == 1)
                guard opens else { ERR_clear_error(); throw .wrongPassword }
            }
            var key: OpaquePointer?, certificate: OpaquePointer?, chain: OpaquePointer?
            let parsed = PKCS12_parse(p12, password, &key, &certificate, &chain) == 1
            defer {
                if let chain {
                    while let extra = OPENSSL_sk_pop(chain) { X509_free(OpaquePointer(extra)) }
                    OPENSSL_sk_free(chain)
                }
                if let certificate { X509_free(certificate) }
                if let key { EVP_PKEY_free(key) }
            }
            guard parsed else { throw .failed("the .p12 file could not be decrypted: \(SigningError.openSSLErrors())") }
            guard let certificate else { throw .noCertificate }
            guard let key else { throw .noPrivateKey }
            return try PushCertificate(certificate: certificate, key: key)
        }
    }
}
