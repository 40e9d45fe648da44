/// Compromised protection: what SDK apps do on a device they find jailbroken (seed 004,
/// "Check the Compromised Status of Devices with Compromised Protection").
public struct CompromisedProtection: Codable, Equatable, Sendable {
    public static let kind = PayloadKind.compromisedProtection

    public var enabled: Bool
    public var action: ComplianceRule.Action

    public init(enabled: Bool = true, action: ComplianceRule.Action = .block) {
        self.enabled = enabled
        self.action = action
    }

    /// Every combination is valid.
    public func validate() -> ValidationErrors { ValidationErrors() }
}
