/// What a device actually gets from every profile that reaches it, with the rules the console
/// states on the device page:
///
/// - Single App Mode: one app. Two different apps are a conflict; the device keeps its previous policy.
/// - ASAM allowlist: the intersection of every list, as iOS combines allow-lists (a warning when
///   more than one payload sets it).
/// - DLP: per setting, the most restrictive answer.
/// - Geofence: the union of all areas.
/// - Logging, branding, authentication, app configuration: the nearest group's setting.
public struct EffectivePolicy: Sendable {
    public var singleAppMode: Sourced<SingleAppMode>?
    /// Set when different Single App Mode apps reach the device.
    public var singleAppModeConflict: [Sourced<SingleAppMode>]
    public var asamAllowlist: Sourced<[String]>?
    public var dlp: Sourced<DataLossPrevention>?
    public var geofence: Sourced<[Geofence.Area]>?
    public var logging: Sourced<Logging>?
    public var branding: Sourced<Branding>?
    public var authentication: Sourced<Authentication>?
    public var appConfigurations: [Sourced<ManagedAppConfiguration>]
    public var warnings: [String]

    public var hasConflict: Bool { !singleAppModeConflict.isEmpty }

    public static func compute(from profiles: [ReachingProfile]) -> EffectivePolicy {
        // Nearest group first; within a group, by profile id so the answer never depends on
        // the order rows came back from the database.
        let ordered = profiles.sorted { ($0.source.groupDistance, $0.source.profileID) < ($1.source.groupDistance, $1.source.profileID) }
        var policy = EffectivePolicy(singleAppModeConflict: [], appConfigurations: [], warnings: [])

        let locks = ordered.compactMap { profile -> Sourced<SingleAppMode>? in
            guard case .singleAppMode(let lock)? = profile.content.payload(of: .singleAppMode) else { return nil }
            return Sourced(value: lock, sources: [profile.source])
        }
        if Set(locks.map(\.value.appIdentifier)).count > 1 {
            policy.singleAppModeConflict = locks
            policy.warnings.append("Conflict: Single App Mode for different apps (\(Set(locks.map(\.value.appIdentifier)).sorted().joined(separator: ", "))) reaches this device. It keeps its previous policy until one is removed.")
        } else if let first = locks.first {
            policy.singleAppMode = Sourced(value: first.value, sources: locks.flatMap(\.sources))
        }

        let lists = ordered.compactMap { profile -> ([String], PolicySource)? in
            guard case .asamAllowlist(let list)? = profile.content.payload(of: .asamAllowlist) else { return nil }
            return (list.appIdentifiers, profile.source)
        }
        if let first = lists.first {
            let common = lists.dropFirst().reduce(first.0) { kept, next in kept.filter(next.0.contains) }
            policy.asamAllowlist = Sourced(value: common, sources: lists.map(\.1))
            if lists.count > 1 {
                policy.warnings.append("The ASAM allowlist is set by \(lists.count) profiles; iOS keeps only apps on every list" + (common.isEmpty ? ", so no app may lock the device." : "."))
            }
        }

        let dlps = ordered.compactMap { profile -> (DataLossPrevention, PolicySource)? in
            guard case .dlp(let dlp)? = profile.content.payload(of: .dlp) else { return nil }
            return (dlp, profile.source)
        }
        if !dlps.isEmpty {
            var strictest = DataLossPrevention()
            for (dlp, _) in dlps {
                strictest.allowCopyPasteOut = strictest.allowCopyPasteOut && dlp.allowCopyPasteOut
                strictest.allowCopyPasteInto = strictest.allowCopyPasteInto && dlp.allowCopyPasteInto
                strictest.allowThirdPartyKeyboards = strictest.allowThirdPartyKeyboards && dlp.allowThirdPartyKeyboards
                strictest.allowComposeEmail = strictest.allowComposeEmail && dlp.allowComposeEmail
                strictest.openLinksInManagedBrowser = strictest.openLinksInManagedBrowser || dlp.openLinksInManagedBrowser
                strictest.openMailtoInManagedMail = strictest.openMailtoInManagedMail || dlp.openMailtoInManagedMail
            }
            policy.dlp = Sourced(value: strictest, sources: dlps.map(\.1))
        }

        let fences = ordered.compactMap { profile -> ([Geofence.Area], PolicySource)? in
            guard case .geofence(let fence)? = profile.content.payload(of: .geofence) else { return nil }
            return (fence.areas, profile.source)
        }
        if !fences.isEmpty {
            policy.geofence = Sourced(value: fences.flatMap(\.0), sources: fences.map(\.1))
        }

        policy.logging = nearest(.logging, ordered, &policy.warnings) { if case .logging(let value) = $0 { value } else { nil } }
        policy.branding = nearest(.branding, ordered, &policy.warnings) { if case .branding(let value) = $0 { value } else { nil } }
        policy.authentication = nearest(.authentication, ordered, &policy.warnings) { if case .authentication(let value) = $0 { value } else { nil } }

        var configuredApps: Set<String> = []
        for profile in ordered {
            guard case .managedAppConfig(let config)? = profile.content.payload(of: .managedAppConfig),
                  configuredApps.insert(config.appIdentifier).inserted else { continue }
            policy.appConfigurations.append(Sourced(value: config, sources: [profile.source]))
        }
        return policy
    }

    /// The setting from the nearest group; a warning when two profiles at that distance set it.
    private static func nearest<Value>(_ kind: PayloadKind, _ ordered: [ReachingProfile], _ warnings: inout [String],
                                       _ extract: (Payload) -> Value?) -> Sourced<Value>? {
        let found = ordered.compactMap { profile in
            profile.content.payloads.lazy.compactMap(extract).first.map { ($0, profile.source) }
        }
        guard let first = found.first else { return nil }
        let ties = found.filter { $0.1.groupDistance == first.1.groupDistance }
        if ties.count > 1 {
            let names = ties.map(\.1.profileName)
            let listed = names.dropLast().joined(separator: ", ") + " and " + names.last!
            warnings.append("\(listed) \(names.count == 2 ? "both" : "all") set \(kind.displayName) through \(first.1.groupName); \(first.1.profileName) wins (the oldest profile).")
        }
        return Sourced(value: first.0, sources: [first.1])
    }
}
