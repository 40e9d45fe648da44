/// Logging: whether SDK apps upload logs, from which level, and over which network.
public struct Logging: Codable, Equatable, Sendable {
    public static let kind = PayloadKind.logging

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
