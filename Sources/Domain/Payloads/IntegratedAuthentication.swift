/// Integrated authentication: SDK apps answer sign-in challenges (Basic, NTLM, client
/// certificate) from the allowed sites with the user's enrollment credentials or certificate;
/// a site not on the list gets no answer, so credentials never leave for an unknown host.
public struct IntegratedAuthentication: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("integrated-authentication", displayName: "Integrated authentication",
                                         summary: "Lets SDK apps sign in to the allowed sites with the user's credentials or certificate.",
                                         combination: .nearestGroup, settings: IntegratedAuthentication.self)
    public static let maximumSites = 100

    public enum Credential: String, CaseIterable, Codable, Sendable {
        case enrollmentCredentials, certificate

        public var displayName: String {
            switch self {
            case .enrollmentCredentials: "The user's enrollment credentials"
            case .certificate: "A client certificate"
            }
        }

        /// The value in the SDK profile.
        public var sdkValue: String {
            switch self {
            case .enrollmentCredentials: "EnrollmentCredentials"
            case .certificate: "Certificate"
            }
        }
    }

    public var enabled: Bool
    /// Host names, or `*.domain` for every host under a domain.
    public var allowedSites: [String]
    public var credential: Credential

    public init(enabled: Bool = true, allowedSites: [String] = [], credential: Credential = .enrollmentCredentials) {
        self.enabled = enabled
        self.allowedSites = allowedSites
        self.credential = credential
    }

    /// Field paths are `sites` and `sites.N`.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if enabled && allowedSites.isEmpty { errors["sites"] = "List at least one site the apps may sign in to." }
        if allowedSites.count > Self.maximumSites { errors["sites"] = "List at most \(Self.maximumSites) sites." }
        var seen: Set<String> = []
        for (index, site) in allowedSites.enumerated() {
            if let problem = HostName.patternProblem(site) {
                errors["sites.\(index)"] = problem
            } else if !seen.insert(site.lowercased()).inserted {
                errors["sites.\(index)"] = "\(site) is already in the list."
            }
        }
        return errors
    }

    /// Whether the apps answer a challenge from `host`.
    public func answers(_ host: String) -> Bool {
        enabled && allowedSites.contains { HostName.matches(host, pattern: $0) }
    }
}

extension PayloadKind {
    public static var integratedAuthentication: PayloadKind { IntegratedAuthentication.kind }
}

extension IntegratedAuthentication: SDKPayloadSettings {
    public static let sdkKey = "IntegratedAuthentication"

    public var sdkEntry: PropertyList {
        .dictionary([("Enabled", .boolean(enabled)), ("AllowedSites", .array(allowedSites.map(PropertyList.string))),
                     ("AuthenticationOption", .string(credential.sdkValue))])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(enabled: try entry.bool("Enabled"), allowedSites: try entry.strings("AllowedSites"),
                  credential: try entry.choice("AuthenticationOption", \Credential.sdkValue))
    }
}
