/// Analytics: whether SDK apps send the events their code records (seed 004, "Use
/// AnalyticsHelper"); the SDK keeps them on disk and sends them when the app restarts.
public struct Analytics: Codable, Equatable, Sendable {
    public static let kind = PayloadKind.analytics

    public var enabled: Bool

    public init(enabled: Bool = true) {
        self.enabled = enabled
    }

    /// Every combination is valid.
    public func validate() -> ValidationErrors { ValidationErrors() }
}
