/// The Autonomous Single App Mode allowlist (`autonomousSingleAppModePermittedAppIDs` in
/// `com.apple.applicationaccess`): the apps that may lock a supervised device themselves.
public struct ASAMAllowlist: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("asam-allowlist", displayName: "ASAM allowlist",
                                         summary: "Lists the apps that may lock a supervised device to themselves (Autonomous Single App Mode).",
                                         combination: .intersection, settings: ASAMAllowlist.self)

    public var appIdentifiers: [String]

    public init(appIdentifiers: [String]) {
        self.appIdentifiers = appIdentifiers
    }

    public func validate() -> ValidationErrors { BundleID.listProblems(appIdentifiers) }
}

extension PayloadKind {
    public static var asamAllowlist: PayloadKind { ASAMAllowlist.kind }
}

extension ASAMAllowlist: ApplePayloadSettings {
    /// Only apps on every list, as iOS combines allow-lists.
    public static func combine(_ found: [Sourced<ASAMAllowlist>]) -> Combined<ASAMAllowlist> {
        guard let first = found.first else { return Combined() }
        let common = found.dropFirst().reduce(first.value.appIdentifiers) { kept, next in kept.filter(next.value.appIdentifiers.contains) }
        let warnings = found.count > 1
            ? ["The ASAM allowlist is set by \(found.count) profiles; iOS keeps only apps on every list" + (common.isEmpty ? ", so no app may lock the device." : ".")]
            : []
        return Combined(ASAMAllowlist(appIdentifiers: common), from: found, warnings: warnings)
    }

    /// A device's stored policy holds the list itself.
    public static func encodeHeld(_ held: [ASAMAllowlist], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encodeIfPresent(held.first?.appIdentifiers, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [ASAMAllowlist] {
        try container.decodeIfPresent([String].self, forKey: PolicyKey(policyKey)).map { [ASAMAllowlist(appIdentifiers: $0)] } ?? []
    }

    public static let applePayloadType = "com.apple.applicationaccess"
    public static let identifierSuffix = "restrictions"

    public var appleKeys: [(String, PropertyList)] {
        [("autonomousSingleAppModePermittedAppIDs", .array(appIdentifiers.map(PropertyList.string)))]
    }
}
