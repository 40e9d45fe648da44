/// Required apps: apps the console installs on the real devices a profile reaches, each as the
/// app catalog says devices get it (App Store, in-house, or taking over the copy already
/// there). It travels as MDM commands (`InstallApplication`), not inside a `.mobileconfig`,
/// and a simulated device shows it as the apps it would be given.
public struct RequiredApps: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("required-apps", displayName: "Required apps",
                                         summary: "Installs apps from the catalog on the real devices the profile reaches.",
                                         combination: .everyApp, settings: RequiredApps.self)
    /// More than this many apps in one profile is a list nobody reads.
    public static let maximumApps = 100

    public var appIdentifiers: [String]

    public init(appIdentifiers: [String]) {
        self.appIdentifiers = appIdentifiers
    }

    public func validate() -> ValidationErrors {
        var errors = BundleID.listProblems(appIdentifiers)
        if appIdentifiers.count > Self.maximumApps { errors["apps"] = "List at most \(Self.maximumApps) apps." }
        return errors
    }

    /// Every app any profile requires, each once, nearest group's first.
    public static func combine(_ found: [Sourced<RequiredApps>]) -> Combined<RequiredApps> {
        var seen: Set<String> = []
        let apps = found.flatMap(\.value.appIdentifiers).filter { seen.insert($0).inserted }
        return Combined(RequiredApps(appIdentifiers: apps), from: found)
    }

    /// A device's stored policy holds the list itself.
    public static func encodeHeld(_ held: [RequiredApps], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encodeIfPresent(held.first?.appIdentifiers, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [RequiredApps] {
        try container.decodeIfPresent([String].self, forKey: PolicyKey(policyKey)).map { [RequiredApps(appIdentifiers: $0)] } ?? []
    }
}

extension RequiredApps: PayloadSettings {}

extension PayloadKind {
    public static var requiredApps: PayloadKind { RequiredApps.kind }
}
