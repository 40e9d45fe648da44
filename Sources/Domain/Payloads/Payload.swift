/// Any payload a profile can carry. Stored as JSON `{"kind": "…", "settings": {…}}`, so the
/// stored form reads the same as the kind names in URLs.
public enum Payload: Codable, Equatable, Sendable {
    case singleAppMode(SingleAppMode)
    case asamAllowlist(ASAMAllowlist)
    case dlp(DataLossPrevention)
    case geofence(Geofence)
    case logging(Logging)
    case branding(Branding)
    case authentication(Authentication)
    case managedAppConfig(ManagedAppConfiguration)
    case customSettings(CustomSettings)
    case compliance(Compliance)
    case compromisedProtection(CompromisedProtection)
    case certificatePinning(CertificatePinning)
    case appTunnel(AppTunnel)
    case integratedAuthentication(IntegratedAuthentication)
    case analytics(Analytics)

    public var kind: PayloadKind {
        switch self {
        case .singleAppMode: .singleAppMode
        case .asamAllowlist: .asamAllowlist
        case .dlp: .dlp
        case .geofence: .geofence
        case .logging: .logging
        case .branding: .branding
        case .authentication: .authentication
        case .managedAppConfig: .managedAppConfig
        case .customSettings: .customSettings
        case .compliance: .compliance
        case .compromisedProtection: .compromisedProtection
        case .certificatePinning: .certificatePinning
        case .appTunnel: .appTunnel
        case .integratedAuthentication: .integratedAuthentication
        case .analytics: .analytics
        }
    }

    public func validate() -> ValidationErrors {
        switch self {
        case .singleAppMode(let value): value.validate()
        case .asamAllowlist(let value): value.validate()
        case .dlp(let value): value.validate()
        case .geofence(let value): value.validate()
        case .logging(let value): value.validate()
        case .branding(let value): value.validate()
        case .authentication(let value): value.validate()
        case .managedAppConfig(let value): value.validate()
        case .customSettings(let value): value.validate()
        case .compliance(let value): value.validate()
        case .compromisedProtection(let value): value.validate()
        case .certificatePinning(let value): value.validate()
        case .appTunnel(let value): value.validate()
        case .integratedAuthentication(let value): value.validate()
        case .analytics(let value): value.validate()
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, settings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try Self.decodeSettings(of: try container.decode(PayloadKind.self, forKey: .kind),
                                       from: try container.superDecoder(forKey: .settings))
    }

    /// The settings of one kind, from a decoder positioned at its settings object (the stored
    /// form's `settings`, or an SDK payload object of the API).
    public static func decodeSettings(of kind: PayloadKind, from decoder: any Decoder) throws -> Payload {
        switch kind {
        case .singleAppMode: .singleAppMode(try SingleAppMode(from: decoder))
        case .asamAllowlist: .asamAllowlist(try ASAMAllowlist(from: decoder))
        case .dlp: .dlp(try DataLossPrevention(from: decoder))
        case .geofence: .geofence(try Geofence(from: decoder))
        case .logging: .logging(try Logging(from: decoder))
        case .branding: .branding(try Branding(from: decoder))
        case .authentication: .authentication(try Authentication(from: decoder))
        case .managedAppConfig: .managedAppConfig(try ManagedAppConfiguration(from: decoder))
        case .customSettings: .customSettings(try CustomSettings(from: decoder))
        case .compliance: .compliance(try Compliance(from: decoder))
        case .compromisedProtection: .compromisedProtection(try CompromisedProtection(from: decoder))
        case .certificatePinning: .certificatePinning(try CertificatePinning(from: decoder))
        case .appTunnel: .appTunnel(try AppTunnel(from: decoder))
        case .integratedAuthentication: .integratedAuthentication(try IntegratedAuthentication(from: decoder))
        case .analytics: .analytics(try Analytics(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        switch self {
        case .singleAppMode(let value): try container.encode(value, forKey: .settings)
        case .asamAllowlist(let value): try container.encode(value, forKey: .settings)
        case .dlp(let value): try container.encode(value, forKey: .settings)
        case .geofence(let value): try container.encode(value, forKey: .settings)
        case .logging(let value): try container.encode(value, forKey: .settings)
        case .branding(let value): try container.encode(value, forKey: .settings)
        case .authentication(let value): try container.encode(value, forKey: .settings)
        case .managedAppConfig(let value): try container.encode(value, forKey: .settings)
        case .customSettings(let value): try container.encode(value, forKey: .settings)
        case .compliance(let value): try container.encode(value, forKey: .settings)
        case .compromisedProtection(let value): try container.encode(value, forKey: .settings)
        case .certificatePinning(let value): try container.encode(value, forKey: .settings)
        case .appTunnel(let value): try container.encode(value, forKey: .settings)
        case .integratedAuthentication(let value): try container.encode(value, forKey: .settings)
        case .analytics(let value): try container.encode(value, forKey: .settings)
        }
    }
}
