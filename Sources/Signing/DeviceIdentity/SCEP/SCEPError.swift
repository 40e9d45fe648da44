/// Why a SCEP PKIOperation could not be read or answered, in words an admin reading the log can act on.
public enum SCEPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Not a DER PKCS#7 SignedData with one signer and its certificate.
    case notAPKIMessage
    /// The signature does not match the message: changed on the way, or forged.
    case signatureInvalid
    /// A signed attribute SCEP requires is absent or of the wrong type (its name given).
    case missingAttribute(String)
    case unknownMessageType(String)
    /// The inner EnvelopedData is not for this CA, or does not decrypt with its key.
    case notEncryptedToThisAuthority
    /// PKCSReq or RenewalReq whose content is not a valid PKCS#10 request.
    case invalidCertificateRequest(CertificateAuthorityError)
    /// OpenSSL failed where it should not (memory); the detail is for the log.
    case failed(String)

    public var description: String {
        switch self {
        case .notAPKIMessage: "The SCEP message is not a PKCS#7 SignedData signed by one certificate it carries."
        case .signatureInvalid: "The SCEP message's signature does not match its content: it was changed or forged."
        case .missingAttribute(let name): "The SCEP message lacks its \(name) attribute (or it has the wrong type)."
        case .unknownMessageType(let value): "The SCEP message type \"\(value)\" is not one this server knows."
        case .notEncryptedToThisAuthority:
            "The SCEP request is not encrypted to this console's CA: the device may hold an older CA certificate; re-install the enrollment profile."
        case .invalidCertificateRequest(let reason): "The SCEP request's certificate request was refused: \(reason)"
        case .failed(let detail): "The SCEP answer could not be made: \(detail)"
        }
    }
}
