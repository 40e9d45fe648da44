/// What a device's effective policy makes it do about being locked to one app, and why:
/// the one rule the device page, the impact preview and anything else that asks "does policy
/// hold this device in an app?" share. Single App Mode holds a device only when it is
/// supervised and the app is installed; a conflict between two Single App Mode payloads
/// changes nothing (the device keeps its previous policy).
public enum PolicyLock: Equatable, Sendable {
    /// The device is in no group: no profile reaches it.
    case noPolicy
    /// No Single App Mode payload reaches it. `asam` is the ASAM allowlist that lets apps lock
    /// the device themselves, when one reaches it.
    case unlocked(asam: Sourced<[String]>?)
    /// Single App Mode payloads for different apps reach it.
    case conflict(apps: [String], sources: [PolicySource])
    /// A Single App Mode payload for `app` reaches it; `blocked` says why it cannot hold the
    /// device, nil when it does.
    case singleAppMode(app: String, source: PolicySource?, blocked: Blocker?)

    public enum Blocker: Equatable, Sendable {
        case notSupervised
        case appNotInstalled
    }

    public static func of(_ policy: EffectivePolicy?, isSupervised: Bool, installedApps: [String]) -> PolicyLock {
        guard let policy else { return .noPolicy }
        if policy.hasConflict {
            return .conflict(apps: policy.conflictApps, sources: policy.singleAppModeConflict.flatMap(\.sources))
        }
        guard let lock = policy[SingleAppMode.self] else {
            return .unlocked(asam: policy[ASAMAllowlist.self].flatMap { $0.value.appIdentifiers.isEmpty ? nil : $0.map(\.appIdentifiers) })
        }
        let app = lock.value.appIdentifier
        let blocked: Blocker? = !isSupervised ? .notSupervised : installedApps.contains(app) ? nil : .appNotInstalled
        return .singleAppMode(app: app, source: lock.sources.first, blocked: blocked)
    }

    /// The app the policy holds the device in, if it does.
    public var lockedApp: String? {
        if case .singleAppMode(let app, _, nil) = self { return app }
        return nil
    }
}

extension Sourced: Equatable where Value: Equatable {
    public static func == (lhs: Sourced, rhs: Sourced) -> Bool { lhs.value == rhs.value && lhs.sources == rhs.sources }
}
