/// What a device actually gets from every profile that reaches it: kind by kind, in the
/// registry's order, the payloads of that kind combined by its settings type's `combine`
/// (stated on the device page by its kind's `combination`: one app for Single App Mode, the
/// intersection of ASAM allowlists, the most restrictive DLP answer, the nearest group's
/// setting for most SDK kinds, …). The rules are tested in `EffectivePolicyTests`.
public struct EffectivePolicy: Sendable {
    public typealias Setting = (kind: PayloadKind, payload: Payload, sources: [PolicySource])

    /// The effective settings kind by kind, in the registry's order, as payloads with their
    /// sources: what the device page lists. (A conflict is not a setting; see `conflicts`.)
    public private(set) var settings: [Setting] = []
    /// Payloads that cannot combine (Single App Mode for different apps): the device keeps its
    /// previous policy while there are any.
    public private(set) var conflicts: [Setting] = []
    public var warnings: [String] = []

    public var hasConflict: Bool { !conflicts.isEmpty }

    /// The effective setting of one kind (the first, for a kind held per app).
    public subscript<Settings: PayloadSettings>(_ type: Settings.Type) -> Sourced<Settings>? {
        all(type).first
    }

    /// Every effective setting of one kind (one per app for managed app configuration).
    public func all<Settings: PayloadSettings>(_ type: Settings.Type) -> [Sourced<Settings>] {
        settings.compactMap { setting in setting.payload.settings(as: type).map { Sourced(value: $0, sources: setting.sources) } }
    }

    /// The Single App Mode payloads of a conflict.
    public var singleAppModeConflict: [Sourced<SingleAppMode>] {
        conflicts.compactMap { setting in setting.payload.settings(as: SingleAppMode.self).map { Sourced(value: $0, sources: setting.sources) } }
    }

    /// The apps of a Single App Mode conflict, each once, sorted: two profiles locking the
    /// same app are one app of the conflict.
    public var conflictApps: [String] { Array(Set(singleAppModeConflict.map(\.value.appIdentifier))).sorted() }

    public static func compute(from profiles: [ReachingProfile]) -> EffectivePolicy {
        // Nearest group first; within a group, by profile id so the answer never depends on
        // the order rows came back from the database.
        let ordered = profiles.sorted { ($0.source.groupDistance, $0.source.profileID) < ($1.source.groupDistance, $1.source.profileID) }
        var policy = EffectivePolicy()
        for type in PayloadRegistry.types { policy.combine(type, ordered) }
        return policy
    }

    private mutating func combine<Settings: PayloadSettings>(_ type: Settings.Type, _ ordered: [ReachingProfile]) {
        let found = ordered.compactMap { profile in
            profile.content.payload(of: Settings.kind)?.settings(as: type).map { Sourced(value: $0, sources: [profile.source]) }
        }
        guard !found.isEmpty else { return }
        let combined = Settings.combine(found)
        settings += combined.effective.map { (Settings.kind, Payload($0.value), $0.sources) }
        conflicts += combined.conflicting.map { (Settings.kind, Payload($0.value), $0.sources) }
        warnings += combined.warnings
    }
}
