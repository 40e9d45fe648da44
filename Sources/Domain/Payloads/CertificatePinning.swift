import Foundation

/// A server certificate an admin uploaded to pin: the DER bytes and what the console read from
/// them. The details are always read from `der` by the app layer (never taken from a client),
/// so a payload's stored details describe its certificate.
public struct PinnedCertificate: Codable, Equatable, Sendable {
    public var der: Data
    public var subject: String
    public var issuer: String
    public var notBefore: Date
    public var notAfter: Date
    /// Base64 of SHA-256 over the public key (SubjectPublicKeyInfo): what a connection's
    /// certificate must match.
    public var publicKeySHA256: String

    public init(der: Data, subject: String, issuer: String, notBefore: Date, notAfter: Date, publicKeySHA256: String) {
        self.der = der
        self.subject = subject
        self.issuer = issuer
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.publicKeySHA256 = publicKeySHA256
    }

    /// The bytes alone, before the app layer reads their details (placeholders until then).
    public init(unread der: Data) {
        self.init(der: der, subject: "", issuer: "", notBefore: .distantPast, notAfter: .distantPast, publicKeySHA256: "")
    }

    private enum CodingKeys: String, CodingKey { case der, subject, issuer, notBefore, notAfter, publicKeySHA256 }

    /// Only the certificate itself is required: an API client sends `der` and the console
    /// reads the rest (placeholders until then).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(unread: try container.decode(Data.self, forKey: .der))
        subject = try container.decodeIfPresent(String.self, forKey: .subject) ?? subject
        issuer = try container.decodeIfPresent(String.self, forKey: .issuer) ?? issuer
        notBefore = try container.decodeIfPresent(Date.self, forKey: .notBefore) ?? notBefore
        notAfter = try container.decodeIfPresent(Date.self, forKey: .notAfter) ?? notAfter
        publicKeySHA256 = try container.decodeIfPresent(String.self, forKey: .publicKeySHA256) ?? publicKeySHA256
    }

    public func isExpired(at now: Date) -> Bool { notAfter < now }
    public func isValid(at now: Date) -> Bool { notBefore <= now && now <= notAfter }

    /// The admin's warning for a certificate past its date; nil while it is valid.
    public func expiryWarning(at now: Date) -> String? {
        guard isExpired(at: now) else { return nil }
        return "This certificate expired on \(Self.day(notAfter)). A server still presenting it fails every connection; "
            + "pin the renewed certificate (a renewal with the same key keeps matching)."
    }

    /// `2026-01-31`, in UTC as certificates state their dates.
    public static func day(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }
}

/// Certificate pinning: SDK apps connect to the listed hosts
/// only when the server's certificate carries one of the pinned public keys, which stops a
/// man-in-the-middle holding a certificate the device would otherwise trust.
public struct CertificatePinning: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("certificate-pinning", displayName: "Certificate pinning",
                                         summary: "SDK apps connect to the listed hosts only when the server presents a pinned public key.",
                                         combination: .nearestGroup, settings: CertificatePinning.self)
    public static let maximumHosts = 100
    /// Room for the current certificate and the ones that will replace it.
    public static let maximumCertificates = 10

    public var enabled: Bool
    /// Host names, or `*.domain` for every host under a domain.
    public var hosts: [String]
    public var certificates: [PinnedCertificate]

    public init(enabled: Bool = true, hosts: [String] = [], certificates: [PinnedCertificate] = []) {
        self.enabled = enabled
        self.hosts = hosts
        self.certificates = certificates
    }

    /// Field paths are `hosts`, `hosts.N` and `certificates`. An expired certificate is a
    /// warning (`warnings(at:)`), not an error: the admin may be pinning ahead of a renewal.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if enabled && hosts.isEmpty { errors["hosts"] = "List at least one host whose certificate is pinned." }
        if hosts.count > Self.maximumHosts { errors["hosts"] = "List at most \(Self.maximumHosts) hosts." }
        var seen: Set<String> = []
        for (index, host) in hosts.enumerated() {
            if let problem = HostName.patternProblem(host) {
                errors["hosts.\(index)"] = problem
            } else if !seen.insert(host.lowercased()).inserted {
                errors["hosts.\(index)"] = "\(host) is already in the list."
            }
        }
        if enabled && certificates.isEmpty { errors["certificates"] = "Upload the certificate the listed hosts present." }
        if certificates.count > Self.maximumCertificates { errors["certificates"] = "Pin at most \(Self.maximumCertificates) certificates." }
        var keys: Set<Data> = []
        if certificates.contains(where: { !keys.insert($0.der).inserted }) {
            errors["certificates"] = "The same certificate is uploaded twice."
        }
        return errors
    }

    public func warnings(at now: Date) -> [String] {
        certificates.compactMap { certificate in certificate.expiryWarning(at: now).map { "\(certificate.subject): \($0)" } }
    }

    /// What became of a connection an SDK app made — the simulator's answer.
    public enum Connection: Equatable, Sendable {
        /// The host is pinned and the server's key is one of the pinned keys.
        case pinned(PinnedCertificate)
        /// The host is pinned and the server's key is not pinned.
        case refusedKey
        /// The certificate is outside its dates: ordinary validation fails, pinned or not.
        case refusedDates
        /// Pinning does not cover the host (or is off): ordinary trust decides.
        case notPinned
    }

    /// A connection to `host` on which the server presents a certificate with `publicKeySHA256`
    /// valid from `validFrom` to `validUntil`, at `now`.
    public func connect(host: String, publicKeySHA256: String, validFrom: Date, validUntil: Date, at now: Date) -> Connection {
        if now < validFrom || now > validUntil { return .refusedDates }
        guard enabled, hosts.contains(where: { HostName.matches(host, pattern: $0) }) else { return .notPinned }
        if let match = certificates.first(where: { $0.publicKeySHA256 == publicKeySHA256 }) { return .pinned(match) }
        return .refusedKey
    }
}

extension PayloadKind {
    public static var certificatePinning: PayloadKind { CertificatePinning.kind }
}

extension CertificatePinning: SDKPayloadSettings {
    public static let sdkKey = "CertificatePinning"

    public var sdkEntry: PropertyList {
        .dictionary([
            ("Enabled", .boolean(enabled)), ("Hosts", .array(hosts.map(PropertyList.string))),
            ("Certificates", .array(certificates.map { certificate in
                .dictionary([("Subject", .string(certificate.subject)), ("PublicKeySHA256", .string(certificate.publicKeySHA256)),
                             ("NotAfter", .date(certificate.notAfter)), ("Data", .data(Array(certificate.der)))])
            })),
        ])
    }

    /// The certificates' details are left for the app layer to read from their bytes.
    public init(sdkEntry entry: SDKEntry) throws {
        let certificates = try entry.dictionaries("Certificates").map { PinnedCertificate(unread: Data(try $0.data("Data"))) }
        self.init(enabled: try entry.bool("Enabled"), hosts: try entry.strings("Hosts"), certificates: certificates)
    }
}
