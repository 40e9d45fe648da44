/// What a device actually gets from every profile that reaches it, with the rules the console
/// states on the device page:
///
/// - Single App Mode: one app. Two different apps are a conflict; the device keeps its previous policy.
/// - ASAM allowlist: the intersection of every list, as iOS combines allow-lists (a warning when
///   more than one payload sets it).
/// - DLP: per setting, the most restrictive answer.
/// - Geofence: the union of all areas.
/// - Logging, branding, authentication, app configuration, custom settings, app tunnel,
///   certificate pinning, integrated authentication, analytics: the nearest group's setting.
/// - Compliance: every rule of every profile (a wipe beats a block when the device judges them).
/// - Compromised protection: on when any profile turns it on; wipe when any of those wipes.
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
    public var customSettings: Sourced<CustomSettings>?
    public var compliance: Sourced<[ComplianceRule]>?
    public var compromisedProtection: Sourced<CompromisedProtection>?
    public var certificatePinning: Sourced<CertificatePinning>?
    public var appTunnel: Sourced<AppTunnel>?
    public var integratedAuthentication: Sourced<IntegratedAuthentication>?
    public var analytics: Sourced<Analytics>?
    public var warnings: [String]

    public var hasConflict: Bool { !singleAppModeConflict.isEmpty }

    /// The apps of a Single App Mode conflict, each once, sorted: two profiles locking the
    /// same app are one app of the conflict.
    public var conflictApps: [String] { Array(Set(singleAppModeConflict.map(\.value.appIdentifier))).sorted() }

    public static func compute(from profiles: [ReachingProfile]) -> EffectivePolicy {
        // Nearest group first; within a group, by profile id so the answer never depends on
        // the order rows came back from the database.
        let ordered = profiles.sorted { ($0.source.groupDistance, $0.source.profileID) < ($1.source.groupDistance, $1.source.profileID) }
        var policy = EffectivePolicy(singleAppModeConflict: [], appConfigurations: [], warnings: [])

        // Every kind in one exhaustive switch: a new kind does not compile until its rule is here.
        for kind in PayloadKind.allCases {
            switch kind {
            case .singleAppMode: policy.combineSingleAppMode(ordered)
            case .asamAllowlist: policy.combineASAMAllowlists(ordered)
            case .dlp: policy.combineDLP(ordered)
            case .geofence: policy.combineGeofences(ordered)
            case .logging: policy.logging = nearest(.logging, ordered, &policy.warnings) { if case .logging(let value) = $0 { value } else { nil } }
            case .branding: policy.branding = nearest(.branding, ordered, &policy.warnings) { if case .branding(let value) = $0 { value } else { nil } }
            case .authentication:
                policy.authentication = nearest(.authentication, ordered, &policy.warnings) { if case .authentication(let value) = $0 { value } else { nil } }
            case .managedAppConfig: policy.combineAppConfigurations(ordered)
            case .customSettings:
                policy.customSettings = nearest(.customSettings, ordered, &policy.warnings) { if case .customSettings(let value) = $0 { value } else { nil } }
            case .compliance: policy.combineCompliance(ordered)
            case .compromisedProtection: policy.combineCompromisedProtection(ordered)
            case .certificatePinning:
                policy.certificatePinning = nearest(.certificatePinning, ordered, &policy.warnings) { if case .certificatePinning(let value) = $0 { value } else { nil } }
            case .appTunnel: policy.appTunnel = nearest(.appTunnel, ordered, &policy.warnings) { if case .appTunnel(let value) = $0 { value } else { nil } }
            case .integratedAuthentication:
                policy.integratedAuthentication = nearest(.integratedAuthentication, ordered, &policy.warnings) {
                    if case .integratedAuthentication(let value) = $0 { value } else { nil }
                }
            case .analytics: policy.analytics = nearest(.analytics, ordered, &policy.warnings) { if case .analytics(let value) = $0 { value } else { nil } }
            }
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

extension EffectivePolicy {
    fileprivate mutating func combineSingleAppMode(_ ordered: [ReachingProfile]) {
        let locks = ordered.compactMap { profile -> Sourced<SingleAppMode>? in
            guard case .singleAppMode(let lock)? = profile.content.payload(of: .singleAppMode) else { return nil }
            return Sourced(value: lock, sources: [profile.source])
        }
        if Set(locks.map(\.value.appIdentifier)).count > 1 {
            singleAppModeConflict = locks
            warnings.append("Conflict: Single App Mode for different apps (\(Set(locks.map(\.value.appIdentifier)).sorted().joined(separator: ", "))) reaches this device. It keeps its previous policy until one is removed.")
        } else if let first = locks.first {
            singleAppMode = Sourced(value: first.value, sources: locks.flatMap(\.sources))
        }
    }

    fileprivate mutating func combineASAMAllowlists(_ ordered: [ReachingProfile]) {
        let lists = ordered.compactMap { profile -> ([String], PolicySource)? in
            guard case .asamAllowlist(let list)? = profile.content.payload(of: .asamAllowlist) else { return nil }
            return (list.appIdentifiers, profile.source)
        }
        guard let first = lists.first else { return }
        let common = lists.dropFirst().reduce(first.0) { kept, next in kept.filter(next.0.contains) }
        asamAllowlist = Sourced(value: common, sources: lists.map(\.1))
        if lists.count > 1 {
            warnings.append("The ASAM allowlist is set by \(lists.count) profiles; iOS keeps only apps on every list" + (common.isEmpty ? ", so no app may lock the device." : "."))
        }
    }

    fileprivate mutating func combineDLP(_ ordered: [ReachingProfile]) {
        let dlps = ordered.compactMap { profile -> (DataLossPrevention, PolicySource)? in
            guard case .dlp(let dlp)? = profile.content.payload(of: .dlp) else { return nil }
            return (dlp, profile.source)
        }
        guard !dlps.isEmpty else { return }
        var strictest = DataLossPrevention()
        for (dlp, _) in dlps {
            strictest.allowCopyPasteOut = strictest.allowCopyPasteOut && dlp.allowCopyPasteOut
            strictest.allowCopyPasteInto = strictest.allowCopyPasteInto && dlp.allowCopyPasteInto
            strictest.allowThirdPartyKeyboards = strictest.allowThirdPartyKeyboards && dlp.allowThirdPartyKeyboards
            strictest.allowComposeEmail = strictest.allowComposeEmail && dlp.allowComposeEmail
            strictest.openLinksInManagedBrowser = strictest.openLinksInManagedBrowser || dlp.openLinksInManagedBrowser
            strictest.openMailtoInManagedMail = strictest.openMailtoInManagedMail || dlp.openMailtoInManagedMail
        }
        dlp = Sourced(value: strictest, sources: dlps.map(\.1))
    }

    fileprivate mutating func combineGeofences(_ ordered: [ReachingProfile]) {
        let fences = ordered.compactMap { profile -> ([Geofence.Area], PolicySource)? in
            guard case .geofence(let fence)? = profile.content.payload(of: .geofence) else { return nil }
            return (fence.areas, profile.source)
        }
        if !fences.isEmpty {
            geofence = Sourced(value: fences.flatMap(\.0), sources: fences.map(\.1))
        }
    }

    fileprivate mutating func combineAppConfigurations(_ ordered: [ReachingProfile]) {
        var configuredApps: Set<String> = []
        for profile in ordered {
            guard case .managedAppConfig(let config)? = profile.content.payload(of: .managedAppConfig),
                  configuredApps.insert(config.appIdentifier).inserted else { continue }
            appConfigurations.append(Sourced(value: config, sources: [profile.source]))
        }
    }

    fileprivate mutating func combineCompliance(_ ordered: [ReachingProfile]) {
        let payloads = ordered.compactMap { profile -> ([ComplianceRule], PolicySource)? in
            guard case .compliance(let compliance)? = profile.content.payload(of: .compliance) else { return nil }
            return (compliance.rules, profile.source)
        }
        guard !payloads.isEmpty else { return }
        // The same rule from two profiles is one rule on the device.
        var seen: Set<ComplianceRule> = []
        compliance = Sourced(value: payloads.flatMap(\.0).filter { seen.insert($0).inserted }, sources: payloads.map(\.1))
    }

    fileprivate mutating func combineCompromisedProtection(_ ordered: [ReachingProfile]) {
        let payloads = ordered.compactMap { profile -> (CompromisedProtection, PolicySource)? in
            guard case .compromisedProtection(let protection)? = profile.content.payload(of: .compromisedProtection) else { return nil }
            return (protection, profile.source)
        }
        guard !payloads.isEmpty else { return }
        let enabled = payloads.filter(\.0.enabled)
        let action: ComplianceRule.Action = enabled.contains { $0.0.action == .wipe } ? .wipe : .block
        compromisedProtection = Sourced(value: CompromisedProtection(enabled: !enabled.isEmpty, action: action), sources: payloads.map(\.1))
    }

    /// The effective settings kind by kind, in the order of `PayloadKind.allCases`, as payloads
    /// with their sources: what the device page lists. (A Single App Mode conflict is not a
    /// setting; see `singleAppModeConflict`.)
    public var settings: [(kind: PayloadKind, payload: Payload, sources: [PolicySource])] {
        PayloadKind.allCases.flatMap { kind -> [(kind: PayloadKind, payload: Payload, sources: [PolicySource])] in
            switch kind {
            case .singleAppMode: singleAppMode.map { [(kind, .singleAppMode($0.value), $0.sources)] } ?? []
            case .asamAllowlist: asamAllowlist.map { [(kind, .asamAllowlist(ASAMAllowlist(appIdentifiers: $0.value)), $0.sources)] } ?? []
            case .dlp: dlp.map { [(kind, .dlp($0.value), $0.sources)] } ?? []
            case .geofence: geofence.map { [(kind, .geofence(Geofence(areas: $0.value)), $0.sources)] } ?? []
            case .logging: logging.map { [(kind, .logging($0.value), $0.sources)] } ?? []
            case .branding: branding.map { [(kind, .branding($0.value), $0.sources)] } ?? []
            case .authentication: authentication.map { [(kind, .authentication($0.value), $0.sources)] } ?? []
            case .managedAppConfig: appConfigurations.map { (kind, .managedAppConfig($0.value), $0.sources) }
            case .customSettings: customSettings.map { [(kind, .customSettings($0.value), $0.sources)] } ?? []
            case .compliance: compliance.map { [(kind, .compliance(Compliance(rules: $0.value)), $0.sources)] } ?? []
            case .compromisedProtection: compromisedProtection.map { [(kind, .compromisedProtection($0.value), $0.sources)] } ?? []
            case .certificatePinning: certificatePinning.map { [(kind, .certificatePinning($0.value), $0.sources)] } ?? []
            case .appTunnel: appTunnel.map { [(kind, .appTunnel($0.value), $0.sources)] } ?? []
            case .integratedAuthentication: integratedAuthentication.map { [(kind, .integratedAuthentication($0.value), $0.sources)] } ?? []
            case .analytics: analytics.map { [(kind, .analytics($0.value), $0.sources)] } ?? []
            }
        }
    }
}
