import COpenSSL
import Foundation

/// What the device-identity types read from an OpenSSL certificate, in Swift values.
enum X509Facts {
    /// One DER certificate, nothing after it.
    static func certificate(der: [UInt8]) -> OpaquePointer? {
        OpenSSLBytes.decoded(der, { d2i_X509(nil, $0, $1) }, free: { X509_free($0) })
    }

    /// The first PEM certificate in `pem`.
    static func certificate(pem: String) -> OpaquePointer? {
        guard let bio = OpenSSLBytes.bio(holding: Array(pem.utf8)) else { return nil }
        defer { BIO_free(bio) }
        guard let certificate = PEM_read_bio_X509(bio, nil, nil, nil) else { ERR_clear_error(); return nil }
        return certificate
    }

    /// An unencrypted PEM private key. The empty passphrase stops OpenSSL from asking for one
    /// on the terminal when the key is encrypted: it fails instead.
    static func privateKey(pem: String) -> OpaquePointer? {
        guard let bio = OpenSSLBytes.bio(holding: Array(pem.utf8)) else { return nil }
        defer { BIO_free(bio) }
        let key = "".withCString { PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        guard let key else { ERR_clear_error(); return nil }
        return key
    }

    static func der(_ certificate: OpaquePointer) -> [UInt8]? { OpenSSLBytes.encoded { i2d_X509(certificate, $0) } }

    static func pem(_ certificate: OpaquePointer) -> String? {
        guard let bio = OpenSSLBytes.emptyBIO() else { return nil }
        defer { BIO_free(bio) }
        guard PEM_write_bio_X509(bio, certificate) == 1 else { return nil }
        return String(decoding: OpenSSLBytes.contents(of: bio), as: UTF8.self)
    }

    /// PKCS#8 PEM (`BEGIN PRIVATE KEY`), unencrypted: what HTTP clients and OpenSSL read.
    static func pem(privateKey key: OpaquePointer) -> String? {
        guard let bio = OpenSSLBytes.emptyBIO() else { return nil }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key, nil, nil, 0, nil, nil) == 1 else { return nil }
        return String(decoding: OpenSSLBytes.contents(of: bio), as: UTF8.self)
    }

    /// An RFC 2253 name, as in `CN=device,O=Example`.
    static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = OpenSSLBytes.emptyBIO() else { return "" }
        defer { BIO_free(bio) }
        guard X509_NAME_print_ex(bio, name, 0, copenssl_name_print_flags()) >= 0 else { return "" }
        return String(decoding: OpenSSLBytes.contents(of: bio), as: UTF8.self)
    }

    /// The value of the first `nid` attribute of a name (e.g. the common name), as UTF-8.
    static func attribute(_ nid: Int32, of name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var output: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&output, data)
        guard length >= 0, let output else { ERR_clear_error(); return nil }
        defer { copenssl_free(output) }
        return String(decoding: UnsafeBufferPointer(start: output, count: Int(length)), as: UTF8.self)
    }

    static func subject(_ certificate: OpaquePointer) -> String { name(X509_get_subject_name(certificate)) }

    static func notBefore(_ certificate: OpaquePointer) -> Date { date(X509_get0_notBefore(certificate)) }
    static func notAfter(_ certificate: OpaquePointer) -> Date { date(X509_get0_notAfter(certificate)) }

    /// ASN.1 times are UTC; `timegm` reads the broken-down time as such. A certificate OpenSSL
    /// parsed has well-formed times, so the fallback (the epoch) is never shown.
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return Date(timeIntervalSince1970: 0) }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    /// The serial number's magnitude as lower-case hex without separators.
    static func serialHex(_ certificate: OpaquePointer) -> String {
        guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(certificate), nil) else { return "" }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        BN_bn2bin(number, &bytes)
        return bytes.isEmpty ? "00" : OpenSSLBytes.hex(bytes)
    }

    /// SHA-256 of the DER certificate in the form `SigningIdentity` shows (upper-case, colons).
    static func fingerprint(_ certificate: OpaquePointer) -> String { SigningIdentity.fingerprint(certificate) }

    /// The DER SubjectPublicKeyInfo: what to compare to tell whether two things hold one key.
    static func publicKeyDER(_ key: OpaquePointer) -> [UInt8]? { OpenSSLBytes.encoded { i2d_PUBKEY(key, $0) } }

    /// A 128-bit random positive serial number, as RFC 5280 asks (at most 20 octets, non-zero).
    static func randomSerial() -> OpaquePointer? {
        guard var bytes = OpenSSLBytes.random(16) else { return nil }
        bytes[0] = (bytes[0] & 0x7F) | 0x40  // positive, and never shorter than 16 octets
        return BN_bin2bn(bytes, Int32(bytes.count), nil)
    }
}
