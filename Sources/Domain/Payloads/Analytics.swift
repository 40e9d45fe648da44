/// Analytics: whether SDK apps send the events their code records; the SDK keeps them on
/// disk and sends them when the app restarts.
public struct Analytics: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("analytics", displayName: "Analytics",
                                         summary: "Lets SDK apps send the analytics events their code records.",
                                         combination: .nearestGroup, settings: Analytics.self)

    public var enabled: Bool

    public init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// Every combination is valid.
    public func validate() -> ValidationErrors { ValidationErrors() }
}

extension PayloadKind {
    public static var analytics: PayloadKind { Analytics.kind }
}

extension Analytics: SDKPayloadSettings {
    public static let sdkKey = "Analytics"

    public var sdkEntry: PropertyList { .dictionary([("Enabled", .boolean(enabled))]) }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(enabled: try entry.bool("Enabled"))
    }
}
