/// Compliance: rules on an app's version and on the OS version, each blocking the app or
/// wiping the managed apps when a device meets it (seed 004, "SDK App Compliance").
public struct Compliance: Codable, Equatable, Sendable {
    public static let kind = PayloadKind.compliance
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
