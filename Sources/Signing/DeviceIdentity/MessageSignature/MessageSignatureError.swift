import Foundation

/// Why an `Mdm-Signature` was refused, in words an admin reading the device's log entry can act on.
public enum MessageSignatureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a CMS SignedData with one signer whose certificate it carries.
    case notASignature
    /// The signature does not match the request body: the body changed, or the signature is for another body.
    case bodyMismatch
    /// The signer's certificate was not issued by this console's CA.
    case notIssuedByAuthority
    case expired(notAfter: Date)
    case notYetValid(notBefore: Date)
    /// The CA itself is not valid at this time, so nothing it issued can be trusted.
    case authorityNotValid
    /// OpenSSL failed where it should not (memory); the detail is for the log.
    case failed(String)

    public var description: String {
        switch self {
        case .notASignature: "The Mdm-Signature header is not a CMS signature carrying its signer's certificate."
        case .bodyMismatch: "The Mdm-Signature does not match the request body: the body was changed or the signature belongs to another request."
        case .notIssuedByAuthority:
            "The device signed with a certificate this console's CA did not issue: "
                + "it may have enrolled with another server or an older CA; re-enroll it."
        case .expired(let notAfter):
            "The device's identity certificate expired on \(CertificateAuthorityError.day(notAfter)): re-enroll the device to give it a new one."
        case .notYetValid(let notBefore):
            "The device's identity certificate is not valid before \(CertificateAuthorityError.day(notBefore)): check the server's clock."
        case .authorityNotValid: "This console's device CA is not valid now (expired or not yet valid): replace it and re-enroll the devices."
        case .failed(let detail): "The Mdm-Signature could not be checked: \(detail)"
        }
    }
}
