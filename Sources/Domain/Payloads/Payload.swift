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
        }
    }

    private enum CodingKeys: String, CodingKey { case kind, settings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(PayloadKind.self, forKey: .kind) {
        case .singleAppMode: self = .singleAppMode(try container.decode(SingleAppMode.self, forKey: .settings))
        case .asamAllowlist: self = .asamAllowlist(try container.decode(ASAMAllowlist.self, forKey: .settings))
        case .dlp: self = .dlp(try container.decode(DataLossPrevention.self, forKey: .settings))
        case .geofence: self = .geofence(try container.decode(Geofence.self, forKey: .settings))
        case .logging: self = .logging(try container.decode(Logging.self, forKey: .settings))
        case .branding: self = .branding(try container.decode(Branding.self, forKey: .settings))
        case .authentication: self = .authentication(try container.decode(Authentication.self, forKey: .settings))
        case .managedAppConfig: self = .managedAppConfig(try container.decode(ManagedAppConfiguration.self, forKey: .settings))
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
        }
    }
}
