/// Any payload a profile can carry: the settings of one registered kind. Stored as JSON
/// `{"kind": "…", "settings": {…}}`, so the stored form reads the same as the kind names in URLs.
public struct Payload: Codable, Equatable, Sendable {
    public let settings: any PayloadSettings

    public init(_ settings: any PayloadSettings) {
        self.settings = settings
    }

    public var kind: PayloadKind { type(of: settings).kind }

    /// The settings when they are of that kind.
    public func settings<Settings: PayloadSettings>(as type: Settings.Type) -> Settings? {
        settings as? Settings
    }

    public func validate() -> ValidationErrors { settings.validate() }

    public static func == (lhs: Payload, rhs: Payload) -> Bool { lhs.settings.isEqual(to: rhs.settings) }

    private enum CodingKeys: String, CodingKey { case kind, settings }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self = try Self.decodeSettings(of: try container.decode(PayloadKind.self, forKey: .kind),
                                       from: try container.superDecoder(forKey: .settings))
    }

    /// The settings of one kind, from a decoder positioned at its settings object (the stored
    /// form's `settings`, or an SDK payload object of the API).
    public static func decodeSettings(of kind: PayloadKind, from decoder: any Decoder) throws -> Payload {
        Payload(try kind.settingsType.init(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try settings.encode(into: &container, forKey: .settings)
    }
}
