import COpenSSL

/// CMS SignedData over a profile, as Apple devices expect: content attached, binary (no MIME
/// canonicalisation, which would change the bytes), DER-encoded. `detached` leaves the content
/// out, as an MDM client's `Mdm-Signature` does (the benchmark's devices sign so).
public enum ProfileSigner {
    public static func sign(_ content: [UInt8], with identity: SigningIdentity, detached: Bool = false) throws(SigningError) -> [UInt8] {
        let certificate = try SigningIdentity.readCertificate(identity.certificatePEM)
        defer { X509_free(certificate) }
        let key = try SigningIdentity.readKey(identity.privateKeyPEM)
        defer { EVP_PKEY_free(key) }
        do {
            return try MemoryBIO.reading(content) { input in
                guard let cms = CMS_sign(certificate, key, nil, input, UInt32(CMS_BINARY | (detached ? CMS_DETACHED : 0))) else {
                    throw SigningError.signingFailed(SigningError.openSSLErrors())
                }
                defer { CMS_ContentInfo_free(cms) }
                return try MemoryBIO.writing { output in
                    guard i2d_CMS_bio(output, cms) == 1 else { throw SigningError.signingFailed(SigningError.openSSLErrors()) }
                }
            }
        } catch let error as SigningError { throw error } catch { throw .signingFailed("\(error)") }
    }

    /// Checks the signature (not the certificate chain, like `openssl cms -verify -noverify`)
    /// and returns the signed content.
    public static func verifiedContent(of signed: [UInt8]) throws(SigningError) -> [UInt8] {
        do {
            return try MemoryBIO.reading(signed) { input in
                guard let cms = d2i_CMS_bio(input, nil) else { throw SigningError.verificationFailed(SigningError.openSSLErrors()) }
                defer { CMS_ContentInfo_free(cms) }
                return try MemoryBIO.writing { output in
                    guard CMS_verify(cms, nil, nil, nil, output, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)) == 1 else {
                        throw SigningError.verificationFailed(SigningError.openSSLErrors())
                    }
                }
            }
        } catch let error as SigningError { throw error } catch { throw .verificationFailed("\(error)") }
    }
}
