import COpenSSL
import Foundation

/// The `Mdm-Signature` check: with `SignMessage` the device sends, with every check-in and
/// command report, a detached CMS signature over the exact body, made with the identity
/// certificate SCEP issued it. Devices sign with SHA-256 or SHA-1 and may name `rsaEncryption`
/// as the signature algorithm; OpenSSL's CMS verification accepts all of these.
public enum MessageSignature {
    /// Checks that `signature` (the header's base64, decoded) signs `body`, and that its
    /// certificate was issued by `authority` and is valid at `now`. Answers that certificate.
    public static func verify(
        _ signature: [UInt8], over body: [UInt8], issuedBy authority: CertificateAuthority, at now: Date = Date()
    ) throws(MessageSignatureError) -> SignerCertificate {
        try SignatureVerifier(authority: authority).withVerifiedSigner(of: signature, over: body, at: now) { (signer) throws(MessageSignatureError) in
            guard let certificate = SignerCertificate(signer) else { throw .failed(SigningError.openSSLErrors()) }
            return certificate
        }
    }
}

/// The signature check with the CA parsed once, for checking many messages: a console keeps
/// one per CA, so a device's check-in decodes its own signature and nothing else. OpenSSL's
/// certificate store may be used by many threads at once; nothing here changes after `init`.
public final class SignatureVerifier: @unchecked Sendable {
    private let ca: OpaquePointer
    private let store: OpaquePointer
    private let authorityValidity: ClosedRange<Date>
    let known = KnownSigners()
    /// The CA it checks against, by SHA-256: a console makes a new verifier when this differs.
    public let authorityFingerprint: String

    public init(authority: CertificateAuthority) throws(MessageSignatureError) {
        guard let ca = X509Facts.certificate(der: authority.certificateDER) else { throw .failed("the CA could not be read") }
        guard let store = X509_STORE_new() else { X509_free(ca); throw .failed("out of memory") }
        guard X509_STORE_add_cert(store, ca) == 1 else { X509_STORE_free(store); X509_free(ca); throw .failed(SigningError.openSSLErrors()) }
        self.ca = ca
        self.store = store
        authorityValidity = X509Facts.notBefore(ca)...max(X509Facts.notBefore(ca), X509Facts.notAfter(ca))
        authorityFingerprint = authority.sha256Fingerprint
    }

    deinit {
        X509_STORE_free(store)
        X509_free(ca)
    }

    /// The serial number (lower-case hex) of the certificate that signed `body`, once the
    /// signature and its issuer checked out: what the console knows a device by. A certificate
    /// checked before needs only its signature checked; anything the quick check does not
    /// accept is checked in full, and refused or explained from there.
    public func verifiedSerial(of signature: [UInt8], over body: [UInt8], at now: Date = Date()) throws(MessageSignatureError) -> String {
        if let serial = QuickSignatureCheck.serial(of: signature, over: body, by: known, at: now) { return serial }
        return try withVerifiedSigner(of: signature, over: body, at: now) { (signer) throws(MessageSignatureError) in
            known.remember(signer, authorityValidity: authorityValidity)
            return X509Facts.serialHex(signer)
        }
    }

    /// Runs `body` with the signer's certificate once the signature and its issuer checked out.
    func withVerifiedSigner<T>(
        of signature: [UInt8], over body: [UInt8], at now: Date, _ use: (OpaquePointer) throws(MessageSignatureError) -> T
    ) throws(MessageSignatureError) -> T {
        guard let cms = OpenSSLBytes.decoded(signature, { d2i_CMS_ContentInfo(nil, $0, $1) }, free: { CMS_ContentInfo_free($0) }) else {
            throw .notASignature
        }
        defer { CMS_ContentInfo_free(cms) }
        guard OBJ_obj2nid(CMS_get0_type(cms)) == NID_pkcs7_signed, let infos = CMS_get0_SignerInfos(cms), OPENSSL_sk_num(infos) == 1,
              CMS_set1_signers_certs(cms, nil, 0) == 1, let signers = CMS_get0_signers(cms)
        else { ERR_clear_error(); throw .notASignature }
        defer { OPENSSL_sk_free(signers) }
        guard OPENSSL_sk_num(signers) == 1, let pointer = OPENSSL_sk_value(signers, 0) else { throw .notASignature }
        let signer = OpaquePointer(pointer)
        try Self.checkSignature(cms, over: body)
        try checkIssuer(signer, at: now)
        return try use(signer)
    }

    /// The signature and content digest only (`CMS_NO_SIGNER_CERT_VERIFY`): the issuer is
    /// checked apart, so that each failure has its own words. Detached is the rule; a
    /// signature that carries content must carry exactly the body.
    private static func checkSignature(_ cms: OpaquePointer, over body: [UInt8]) throws(MessageSignatureError) {
        guard let bodyBIO = OpenSSLBytes.bio(holding: body), let output = OpenSSLBytes.emptyBIO() else { throw .failed("out of memory") }
        defer { BIO_free(bodyBIO); BIO_free(output) }
        let detached = CMS_is_detached(cms) == 1
        let flags = UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY)
        guard CMS_verify(cms, nil, nil, detached ? bodyBIO : nil, output, flags) == 1 else { ERR_clear_error(); throw .bodyMismatch }
        if !detached, OpenSSLBytes.contents(of: output) != body { throw .bodyMismatch }
    }

    /// The signer must chain to the CA alone (no other trust anchors, no intermediates), at
    /// `now`, for any purpose: devices' certificates say clientAuth, which is no CMS purpose.
    private func checkIssuer(_ signer: OpaquePointer, at now: Date) throws(MessageSignatureError) {
        // The CA's own certificate would verify against itself, but no device holds its key.
        if X509_cmp(ca, signer) == 0 { throw .notIssuedByAuthority }
        guard let context = X509_STORE_CTX_new() else { throw .failed("out of memory") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, signer, nil) == 1,
              let parameters = X509_STORE_CTX_get0_param(context), X509_VERIFY_PARAM_set_purpose(parameters, X509_PURPOSE_ANY) == 1
        else { throw .failed(SigningError.openSSLErrors()) }
        X509_VERIFY_PARAM_set_time(parameters, OpenSSLBytes.time(now))
        if X509_verify_cert(context) == 1 { return }
        let error = X509_STORE_CTX_get_error(context), depth = X509_STORE_CTX_get_error_depth(context)
        ERR_clear_error()
        switch (error, depth) {
        case (X509_V_ERR_CERT_HAS_EXPIRED, 0): throw .expired(notAfter: X509Facts.notAfter(signer))
        case (X509_V_ERR_CERT_NOT_YET_VALID, 0): throw .notYetValid(notBefore: X509Facts.notBefore(signer))
        case (X509_V_ERR_CERT_HAS_EXPIRED, _), (X509_V_ERR_CERT_NOT_YET_VALID, _): throw .authorityNotValid
        default: throw .notIssuedByAuthority
        }
    }
}
