/// Compliance: rules on an app's version and on the OS version, each blocking the app or
/// wiping the managed apps when a device meets it.
public struct Compliance: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("compliance", displayName: "Compliance",
                                         summary: "Blocks SDK apps, or wipes the managed apps, on devices with an app or iOS version out of line.",
                                         combination: .everyRule, settings: Compliance.self)
    public static let maximumRules = 50

    public var rules: [ComplianceRule]

    public init(rules: [ComplianceRule]) {
        self.rules = rules
    }

    /// Field paths are `rules.N.app` and `rules.N.version`.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if rules.isEmpty { errors["rules"] = "Add at least one rule, or remove the payload." }
        if rules.count > Self.maximumRules { errors["rules"] = "A payload holds at most \(Self.maximumRules) rules." }
        var seen: Set<ComplianceRule> = []
        for (index, rule) in rules.enumerated() {
            if let app = rule.appIdentifier, let problem = BundleID.problem(app) {
                errors["rules.\(index).app"] = problem
            }
            if AppleVersion(rule.version) == nil {
                errors["rules.\(index).version"] = "Enter a version such as 17.4 or 5.2.1: up to four whole numbers joined by dots."
            } else if !seen.insert(rule).inserted {
                errors["rules.\(index).version"] = "The same rule is already in the list."
            }
        }
        return errors
    }
}

extension PayloadKind {
    public static var compliance: PayloadKind { Compliance.kind }
}

extension Compliance: SDKPayloadSettings {
    /// Every rule of every profile; the same rule from two profiles is one rule on the device.
    public static func combine(_ found: [Sourced<Compliance>]) -> Combined<Compliance> {
        var seen: Set<ComplianceRule> = []
        return Combined(Compliance(rules: found.flatMap(\.value.rules).filter { seen.insert($0).inserted }), from: found)
    }

    /// A device's stored policy holds the rules themselves.
    public static func encodeHeld(_ held: [Compliance], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encodeIfPresent(held.first?.rules, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [Compliance] {
        try container.decodeIfPresent([ComplianceRule].self, forKey: PolicyKey(policyKey)).map { [Compliance(rules: $0)] } ?? []
    }

    public static let sdkKey = "Compliance"

    public var sdkEntry: PropertyList {
        .dictionary([("Rules", .array(rules.map { rule in
            .dictionary((rule.appIdentifier.map { [("ApplicationIdentifier", PropertyList.string($0))] } ?? []) + [
                ("Subject", .string(rule.appIdentifier == nil ? "OSVersion" : "ApplicationVersion")),
                ("Operator", .string(rule.comparison.sdkValue)), ("Version", .string(rule.version)),
                ("Action", .string(rule.action.sdkValue)),
            ])
        }))])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(rules: try entry.dictionaries("Rules").map { rule in
            let subject: ComplianceRule.Subject = try rule.string("Subject") == "OSVersion" ? .operatingSystem : .app(try rule.string("ApplicationIdentifier"))
            return ComplianceRule(subject: subject, comparison: try rule.choice("Operator", \VersionComparison.sdkValue),
                                  version: try rule.string("Version"), action: try rule.choice("Action", \ComplianceRule.Action.sdkValue))
        })
    }
}
