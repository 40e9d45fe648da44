import Foundation

/// Why the device CA, a certificate request or an issue was refused, in words an admin can act on.
public enum CertificateAuthorityError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidCertificate
    case invalidPrivateKey
    case keyDoesNotMatchCertificate
    /// The certificate lacks basicConstraints CA:TRUE, so devices would not accept what it issues.
    case notACertificateAuthority
    /// SCEP requests are encrypted to the CA with RSA, so an EC key cannot receive them.
    case notRSA
    case expired(notAfter: Date)
    case notYetValid(notBefore: Date)
    /// The bytes are not one DER PKCS#10 request.
    case invalidRequest
    /// The request is not signed by the key it carries: changed on the way, or forged.
    case requestSignatureInvalid
    case weakKey(bits: Int)
    /// OpenSSL failed where it should not (memory, randomness); the detail is for the log.
    case failed(String)

    public var description: String {
        switch self {
        case .invalidCertificate: "The CA certificate is not a PEM-encoded X.509 certificate."
        case .invalidPrivateKey: "The CA private key is not a PEM-encoded, unencrypted private key."
        case .keyDoesNotMatchCertificate: "The private key does not belong to this CA certificate."
        case .notACertificateAuthority:
            "This certificate is not a certificate authority (its basic constraints do not say CA:TRUE): upload the CA's own certificate."
        case .notRSA: "The CA key must be RSA: devices encrypt their SCEP requests to it, which needs RSA."
        case .expired(let notAfter): "The certificate expired on \(Self.day(notAfter)): renew it or generate a new one."
        case .notYetValid(let notBefore): "The certificate is not valid before \(Self.day(notBefore)): check the server's clock."
        case .invalidRequest: "The certificate request is not a DER-encoded PKCS#10 request."
        case .requestSignatureInvalid: "The certificate request's signature does not match its key: it was changed or forged."
        case .weakKey(let bits): "The request's key has \(bits) bits; at least 2048 are needed (set Keysize 2048 in the SCEP payload)."
        case .failed(let detail): "The certificate could not be made: \(detail)"
        }
    }

    static func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }
}
