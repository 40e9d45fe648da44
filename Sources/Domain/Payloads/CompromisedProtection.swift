/// Compromised protection: what SDK apps do on a device they find jailbroken — block the
/// app, or wipe the managed apps' data.
public struct CompromisedProtection: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("compromised-protection", displayName: "Compromised protection",
                                         summary: "Blocks SDK apps, or wipes the managed apps, on a jailbroken device.",
                                         combination: .mostRestrictive, settings: CompromisedProtection.self)

    public var enabled: Bool
    public var action: ComplianceRule.Action

    public init(enabled: Bool = true, action: ComplianceRule.Action = .block) {
        self.enabled = enabled
        self.action = action
    }

    /// Every combination is valid.
    public func validate() -> ValidationErrors { ValidationErrors() }
}

extension PayloadKind {
    public static var compromisedProtection: PayloadKind { CompromisedProtection.kind }
}

extension CompromisedProtection: SDKPayloadSettings {
    /// On when any profile turns it on; wipe when any of those wipes.
    public static func combine(_ found: [Sourced<CompromisedProtection>]) -> Combined<CompromisedProtection> {
        let enabled = found.map(\.value).filter(\.enabled)
        let action: ComplianceRule.Action = enabled.contains { $0.action == .wipe } ? .wipe : .block
        return Combined(CompromisedProtection(enabled: !enabled.isEmpty, action: action), from: found)
    }

    public static let sdkKey = "CompromisedProtection"

    public var sdkEntry: PropertyList { .dictionary([("Enabled", .boolean(enabled)), ("Action", .string(action.sdkValue))]) }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(enabled: try entry.bool("Enabled"), action: try entry.choice("Action", \ComplianceRule.Action.sdkValue))
    }
}
