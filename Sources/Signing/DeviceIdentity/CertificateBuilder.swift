import COpenSSL
import Foundation

/// The steps the CA and its issued certificates share: an X.509 v3 certificate with a random
/// serial, a validity window counted from the caller's `now` (so tests control the clock),
/// and extensions written in OpenSSL's configuration syntax.
enum CertificateBuilder {
    /// Sets version, a random serial, validity, subject, issuer name and public key.
    /// `notBefore` is a few minutes before `now`: a device whose clock runs a little behind
    /// the server's would otherwise refuse its brand-new certificate.
    static func start(
        _ certificate: OpaquePointer, subject: OpaquePointer, issuer: OpaquePointer, publicKey: OpaquePointer, now: Date, days: Int
    ) -> Bool {
        guard let serial = X509Facts.randomSerial() else { return false }
        defer { BN_free(serial) }
        var start = OpenSSLBytes.time(now)
        return X509_set_version(certificate, 2) == 1
            && BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(certificate)) != nil
            && X509_time_adj_ex(X509_getm_notBefore(certificate), 0, -600, &start) != nil
            && X509_time_adj_ex(X509_getm_notAfter(certificate), Int32(days), 0, &start) != nil
            && X509_set_subject_name(certificate, subject) == 1
            && X509_set_issuer_name(certificate, issuer) == 1
            && X509_set_pubkey(certificate, publicKey) == 1
    }

    /// Adds extensions, e.g. `(NID_key_usage, "critical,digitalSignature")`, in order. The key
    /// identifiers (`hash`, `keyid`) are computed from `issuer` and the certificate itself.
    static func add(_ extensions: [(Int32, String)], to certificate: OpaquePointer, issuer: OpaquePointer) -> Bool {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer, certificate, nil, nil, 0)
        for (nid, value) in extensions {
            guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else { return false }
            defer { X509_EXTENSION_free(ext) }
            guard X509_add_ext(certificate, ext, -1) == 1 else { return false }
        }
        return true
    }

    /// A name of UTF-8 attributes, most significant first (`[("O", "Example"), ("CN", "Device CA")]`,
    /// which RFC 2253 prints as `CN=Device CA,O=Example`). The caller
    /// frees it with `X509_NAME_free`.
    static func name(_ parts: [(String, String)]) -> OpaquePointer? {
        guard let name = X509_NAME_new() else { return nil }
        for (field, value) in parts where !value.isEmpty {
            guard X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, value, -1, -1, 0) == 1 else {
                X509_NAME_free(name)
                return nil
            }
        }
        return name
    }
}
