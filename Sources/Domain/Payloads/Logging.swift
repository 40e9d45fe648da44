/// Logging: whether SDK apps upload logs, from which level, and over which network.
public struct Logging: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("logging", displayName: "Logging",
                                         summary: "Sets which app log messages devices upload, and over which network.",
                                         combination: .nearestGroup, settings: Logging.self)

    public var enabled: Bool
    public var level: LogLevel
    public var wifiOnly: Bool

    public init(enabled: Bool = true, level: LogLevel = .error, wifiOnly: Bool = false) {
        self.enabled = enabled
        self.level = level
        self.wifiOnly = wifiOnly
    }

    /// Every combination is valid.
    public func validate() -> ValidationErrors { ValidationErrors() }
}

extension PayloadKind {
    public static var logging: PayloadKind { Logging.kind }
}

extension Logging: SDKPayloadSettings {
    public static let sdkKey = "Logging"

    public var sdkEntry: PropertyList {
        .dictionary([("Enabled", .boolean(enabled)), ("Level", .string(level.displayName)), ("WiFiOnly", .boolean(wifiOnly))])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(enabled: try entry.bool("Enabled"), level: try entry.choice("Level", \LogLevel.displayName), wifiOnly: try entry.bool("WiFiOnly"))
    }
}
