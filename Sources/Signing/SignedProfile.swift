import COpenSSL

/// A `.mobileconfig` as uploaded: a property list as it is, or CMS SignedData around one. The
/// signature is checked against the content (not a trust store: the console has none for
/// other organisations' certificates), and the signer named, so an admin knows who sent it
/// and that nothing changed since.
public struct SignedProfile: Sendable, Equatable {
    public let content: [UInt8]
    /// The signer certificate's subject; nil for an unsigned profile.
    public let signer: String?
    /// The signer certificate's SHA-256 fingerprint, to compare with this console's own.
    public let signerFingerprint: String?

    public static func read(_ bytes: [UInt8]) throws(SigningError) -> SignedProfile {
        // An XML property list starts with "<" (after a byte-order mark or whitespace).
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? bytes.dropFirst(3) : bytes[...]
        if let first = start.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }), first == UInt8(ascii: "<") {
            return SignedProfile(content: bytes, signer: nil, signerFingerprint: nil)
        }
        do {
            return try MemoryBIO.reading(bytes) { input in
                guard let cms = d2i_CMS_bio(input, nil) else {
                    throw SigningError.notAProfile("it is neither an XML property list nor a signed profile")
                }
                defer { CMS_ContentInfo_free(cms) }
                var signer: String?
                var fingerprint: String?
                let content = try MemoryBIO.writing { output in
                    guard CMS_verify(cms, nil, nil, nil, output, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)) == 1 else {
                        throw SigningError.verificationFailed("the signature does not match the content, so it changed after signing")
                    }
                }
                if let signers = CMS_get0_signers(cms) {
                    defer { OPENSSL_sk_free(signers) }
                    if OPENSSL_sk_num(signers) > 0, let certificate = OPENSSL_sk_value(signers, 0) {
                        let x509 = OpaquePointer(certificate)
                        signer = SigningIdentity.subjectLine(x509)
                        fingerprint = SigningIdentity.fingerprint(x509)
                    }
                }
                return SignedProfile(content: content, signer: signer ?? "an unnamed signer", signerFingerprint: fingerprint)
            }
        } catch let error as SigningError { throw error } catch { throw .verificationFailed("\(error)") }
    }
}
