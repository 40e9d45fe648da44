import COpenSSL
import Foundation

/// The check of a message signed by a certificate already checked in full: the body's digest
/// must be the one the signed attributes state, and the signature over those attributes must
/// verify with the certificate's key (RSA, PKCS #1 v1.5). It only ever accepts: any doubt
/// answers nil, and the caller checks the message in full.
enum QuickSignatureCheck {
    static func serial(of signature: [UInt8], over body: [UInt8], by known: KnownSigners, at now: Date) -> String? {
        guard let parts = DetachedSignature(signature), let signer = known.signer(for: parts.certificateDER),
              signer.validity.contains(now), let algorithm = Algorithm(parts.digest),
              algorithm.digest(of: body)?.elementsEqual(parts.bodyDigest) == true,
              algorithm.verify(Array(parts.signature), over: parts.signedAttributes, with: signer.key)
        else { return nil }
        return signer.serial
    }

    /// A digest fetched from OpenSSL's provider once, so no check looks it up again.
    private struct Algorithm: @unchecked Sendable {
        let digest: OpaquePointer

        static let sha256 = EVP_MD_fetch(nil, "SHA2-256", nil).map(Algorithm.init)
        static let sha1 = EVP_MD_fetch(nil, "SHA1", nil).map(Algorithm.init)

        private init(digest: OpaquePointer) { self.digest = digest }

        init?(_ kind: DetachedSignature.Digest) {
            guard let found = kind == .sha256 ? Self.sha256 : Self.sha1 else { return nil }
            self = found
        }

        func digest(of bytes: [UInt8]) -> [UInt8]? {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            let done = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &output, &length, digest, nil) == 1 }
            guard done else { ERR_clear_error(); return nil }
            return Array(output.prefix(Int(length)))
        }

        func verify(_ signature: [UInt8], over signed: [UInt8], with key: OpaquePointer) -> Bool {
            guard let context = EVP_MD_CTX_new() else { return false }
            defer { EVP_MD_CTX_free(context) }
            let verified = EVP_DigestVerifyInit(context, nil, digest, nil, key) == 1
                && EVP_DigestVerify(context, signature, signature.count, signed, signed.count) == 1
            if !verified { ERR_clear_error() }
            return verified
        }
    }
}
