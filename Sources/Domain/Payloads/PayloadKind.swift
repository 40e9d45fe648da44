/// A kind of payload a profile can carry; a profile holds at most one of each. Each kind is
/// declared once, as the `kind` of its settings type (`Analytics.kind`), and listed by
/// `PayloadRegistry`; kinds compare by their name.
public struct PayloadKind: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The kind's name in addresses, stored JSON, help topics and SDK payload types.
    public let rawValue: String
    public let displayName: String
    /// One sentence for the profile page and the kind's form.
    public let summary: String
    /// How this kind's payloads combine, as the device page states it.
    public let combination: PayloadCombination
    /// The settings type that declares the kind.
    public let settingsType: any PayloadSettings.Type

    public init(_ rawValue: String, displayName: String, summary: String, combination: PayloadCombination,
                settings: any PayloadSettings.Type) {
        self.rawValue = rawValue
        self.displayName = displayName
        self.summary = summary
        self.combination = combination
        settingsType = settings
    }

    /// The registered kind of that name; nil for any other.
    public init?(rawValue: String) {
        guard let kind = PayloadRegistry.kind(named: rawValue) else { return nil }
        self = kind
    }

    /// Every kind, in the registry's order: the order pages list them and profiles keep them.
    public static var allCases: [PayloadKind] { PayloadRegistry.kinds }

    /// Apple payloads go into the `.mobileconfig` under Apple's own payload types; the others
    /// are the SDK's, inside the SDK profile.
    public var isApplePayload: Bool { settingsType is any ApplePayloadSettings.Type }
    /// SDK payloads travel in the SDK profile apps read; a kind that is neither (required
    /// apps) reaches real devices as MDM commands only.
    public var isSDKPayload: Bool { settingsType is any SDKPayloadSettings.Type }

    /// Where the kind takes effect, as pages tag it: "Apple", "SDK" or "MDM".
    public var channel: String { isApplePayload ? "Apple" : isSDKPayload ? "SDK" : "MDM" }

    public var description: String { rawValue }

    public static func == (lhs: PayloadKind, rhs: PayloadKind) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let kind = PayloadKind(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "“\(name)” is not a payload kind.")
        }
        self = kind
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
