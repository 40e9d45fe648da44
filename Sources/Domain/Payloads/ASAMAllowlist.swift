/// The Autonomous Single App Mode allowlist (`autonomousSingleAppModePermittedAppIDs` in
/// `com.apple.applicationaccess`): the apps that may lock a supervised device themselves.
public struct ASAMAllowlist: Codable, Equatable, Sendable {
    public static let kind = PayloadKind.asamAllowlist

    public var appIdentifiers: [String]

    public init(appIdentifiers: [String]) {
        self.appIdentifiers = appIdentifiers
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if appIdentifiers.isEmpty { errors["apps"] = "Add at least one app, or remove the payload." }
        var seen: Set<String> = []
        for (index, app) in appIdentifiers.enumerated() {
            if let problem = BundleID.problem(app) {
                errors["apps.\(index)"] = problem
            } else if !seen.insert(app).inserted {
                errors["apps.\(index)"] = "\(app) is already in the list."
            }
        }
        return errors
    }
}
