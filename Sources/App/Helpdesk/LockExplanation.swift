import Domain
import Foundation

/// What the device page says about a device's lock, in two parts kept apart: what its policy
/// makes it do (`policy`: the payload, profile, version and group, or why a payload cannot
/// hold it) and what the device last reported (`reported`: which mode holds it in which app,
/// and why — the payload, the app's own request and what allowed it, or the person at the
/// device — with how the lock ends).
struct LockExplanation: Equatable {
    let status: String
    let reason: String

    /// What the effective policy makes the device do (`PolicyLock`).
    static func policy(_ lock: PolicyLock, appName: (String) -> String) -> LockExplanation {
        switch lock {
        case .noPolicy:
            return LockExplanation(status: "Nothing", reason: "It is in no group, so no profile reaches it.")
        case .unlocked(let asam?):
            return LockExplanation(status: "Not locked by policy",
                                   reason: "No Single App Mode payload reaches it. The ASAM allowlist \(sources(asam.sources)) lets "
                                       + asam.value.map(appName).joined(separator: ", ") + " lock the device themselves.")
        case .unlocked(nil):
            return LockExplanation(status: "Not locked by policy", reason: "No Single App Mode payload reaches it.")
        case .conflict(let apps, let from):
            return LockExplanation(status: "Conflict: no change",
                                   reason: "Single App Mode payloads for \(apps.map(appName).joined(separator: " and ")) reach it \(sources(from)); "
                                       + "it keeps its previous policy until one is removed.")
        case .singleAppMode(let app, let source, let blocked):
            let payload = "The Single App Mode payload" + (source.map { " " + Self.sources([$0]) } ?? "")
            switch blocked {
            case nil:
                return LockExplanation(status: "Single App Mode in \(appName(app))",
                                       reason: "\(payload) holds it in \(appName(app)); a restart or a crash does not end it, only removing the payload does.")
            case .notSupervised?:
                return LockExplanation(status: "Single App Mode in \(appName(app)) — cannot apply",
                                       reason: "\(payload) asks for it, but the device is not supervised, so iOS ignores it.")
            case .appNotInstalled?:
                return LockExplanation(status: "Single App Mode in \(appName(app)) — waiting for the app",
                                       reason: "\(payload) asks for it, but \(appName(app)) is not installed; it locks once the app is.")
            }
        }
    }

    /// "of the profile “Kiosk” (v3) assigned to Lobby", for each profile.
    static func sources(_ sources: [PolicySource]) -> String {
        let unique = sources.reduce(into: [PolicySource]()) { if !$0.contains($1) { $0.append($1) } }
        return "of " + unique.map { "the profile “\($0.profileName)” (v\($0.version)) assigned to \($0.groupName)" }.joined(separator: " and ")
    }

    /// What the device last reported about its lock.
    static func reported(_ state: SimulatedDevice?, policy: EffectivePolicy?, appName: (String) -> String) -> LockExplanation {
        guard let state else {
            return LockExplanation(status: "Not reported", reason: "Only simulated devices report their lock to the console.")
        }
        guard let lock = state.lock else {
            return LockExplanation(status: "Not locked", reason: "No Single App Mode payload holds it and no app or person has locked it.")
        }
        let app = appName(lock.app)
        let status = "\(lock.modeName) in \(app)"
        switch lock {
        case .singleAppMode:
            let source = policy?[SingleAppMode.self]?.sources.first.map { " " + sources([$0]) } ?? ""
            return LockExplanation(status: status, reason: "The Single App Mode payload\(source) holds it; it ends only when that payload no longer reaches the device.")
        case .autonomous:
            let source = policy?[ASAMAllowlist.self]?.sources.map { "“\($0.profileName)”" }.joined(separator: ", ")
            return LockExplanation(status: status, reason: "\(app) asked to lock the device"
                + (source.map { ", which the ASAM allowlist in \($0) allows" } ?? "")
                + ". It ends when the app unlocks or the device restarts.")
        case .assessment(_, let since):
            return LockExplanation(status: status, reason: "\(app) started an assessment \(DisplayTime.relative(since, now: state.clock)); "
                + "it ends when the app ends it, the device restarts, or after 8 hours.")
        case .guidedAccess:
            return LockExplanation(status: status, reason: "Someone at the device started Guided Access; it ends with the Guided Access passcode, "
                + "a restart, or the Clear Guided Access passcode command.")
        }
    }
}
