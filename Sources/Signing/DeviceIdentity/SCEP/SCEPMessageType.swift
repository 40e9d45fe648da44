/// The SCEP `messageType` attribute (RFC 8894 §3.2.1.2): a decimal number in a PrintableString.
public enum SCEPMessageType: String, Sendable, Equatable {
    case certRep = "3"
    case renewalReq = "17"
    case pkcsReq = "19"
    case certPoll = "20"
    case getCert = "21"
    case getCRL = "22"

    /// PKCSReq and RenewalReq carry a PKCS#10 request; the others name a certificate or CRL.
    public var carriesCertificateRequest: Bool { self == .pkcsReq || self == .renewalReq }
}

/// Why a CertRep refuses a request (RFC 8894 §3.2.1.4), sent as the `failInfo` attribute.
public enum SCEPFailInfo: String, Sendable, Equatable {
    /// Unrecognised or unsupported algorithm.
    case badAlg = "0"
    /// Integrity check (signature) failed; also used for a wrong challenge.
    case badMessageCheck = "1"
    /// Transaction not permitted or supported.
    case badRequest = "2"
    /// The signingTime attribute was not close enough to the system time.
    case badTime = "3"
    /// No certificate could be identified matching the criteria.
    case badCertId = "4"
}
