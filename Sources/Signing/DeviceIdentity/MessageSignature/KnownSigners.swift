import COpenSSL
import Foundation
import Synchronization

/// Device certificates whose chain to the CA OpenSSL has checked, kept by their exact DER
/// with their public key parsed. A device signs every message with the same certificate, so
/// from its second message on only the signature is left to check: OpenSSL's decoders, which
/// take most of a check-in's time, run once per certificate instead of once per message.
/// Whether the certificate was since revoked is not this cache's business: the console looks
/// the serial up in its records on every message.
final class KnownSigners: Sendable {
    /// Far more certificates than a console enrolls; when full it starts again, so memory
    /// stays bounded (a public key is about 1 KB here) whatever certificates are sent.
    static let capacity = 50_000

    private let signers = Mutex<[CertificateKey: Signer]>([:])

    /// A certificate's DER as a dictionary key, hashed and compared as memory: the standard
    /// library's hashing of a byte collection goes one byte at a time.
    private struct CertificateKey: Hashable {
        let der: ArraySlice<UInt8>

        func hash(into hasher: inout Hasher) { der.withUnsafeBytes { hasher.combine(bytes: $0) } }

        static func == (left: Self, right: Self) -> Bool {
            left.der.count == right.der.count && left.der.withUnsafeBytes { a in
                right.der.withUnsafeBytes { b in
                    guard let first = a.baseAddress, let second = b.baseAddress else { return true }  // both empty
                    return memcmp(first, second, a.count) == 0
                }
            }
        }
    }

    /// A checked certificate: its key, its serial and when it may sign (the certificate's
    /// and the CA's validity together).
    final class Signer: @unchecked Sendable {
        /// An `EVP_PKEY`, only read from here on (OpenSSL allows that from many threads).
        let key: OpaquePointer
        let serial: String
        let validity: ClosedRange<Date>

        init(key: OpaquePointer, serial: String, validity: ClosedRange<Date>) {
            self.key = key
            self.serial = serial
            self.validity = validity
        }

        deinit { EVP_PKEY_free(key) }
    }

    func signer(for certificate: ArraySlice<UInt8>) -> Signer? { signers.withLock { $0[CertificateKey(der: certificate)] } }

    /// Keeps `certificate` (an `X509` whose chain checked out) once its key is RSA, the one
    /// kind the quick check reads.
    func remember(_ certificate: OpaquePointer, authorityValidity: ClosedRange<Date>) {
        guard let der = X509Facts.der(certificate), let key = X509_get_pubkey(certificate) else { ERR_clear_error(); return }
        guard EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA else { EVP_PKEY_free(key); return }
        let notBefore = max(X509Facts.notBefore(certificate), authorityValidity.lowerBound)
        let notAfter = min(X509Facts.notAfter(certificate), authorityValidity.upperBound)
        guard notBefore <= notAfter else { EVP_PKEY_free(key); return }
        let signer = Signer(key: key, serial: X509Facts.serialHex(certificate), validity: notBefore...notAfter)
        signers.withLock { signers in
            if signers.count >= Self.capacity { signers.removeAll() }
            signers[CertificateKey(der: der[...])] = signer
        }
    }
}
