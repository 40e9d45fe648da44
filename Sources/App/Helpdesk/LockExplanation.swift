import Domain
import Foundation

/// What the device page says about a device's lock: which mode holds it in which app, and
/// why — the payload and profile, the app's own request and what allowed it, or the person
/// at the device — with how the lock ends.
struct LockExplanation: Equatable {
    let status: String
    let reason: String

    static func of(_ state: SimulatedDevice?, policy: EffectivePolicy?, appName: (String) -> String) -> LockExplanation {
        guard let state else {
            return LockExplanation(status: "Not reported", reason: "Only simulated devices report their lock to the console.")
        }
        guard let lock = state.lock else {
            return LockExplanation(status: "Not locked", reason: "No Single App Mode payload reaches it and no app or person has locked it.")
        }
        let app = appName(lock.app)
        let status = "\(lock.modeName) in \(app)"
        switch lock {
        case .singleAppMode:
            let source = policy?.singleAppMode?.sources.first.map { " from the profile “\($0.profileName)” (v\($0.version)) assigned to \($0.groupName)" } ?? ""
            return LockExplanation(status: status, reason: "The Single App Mode payload\(source) holds it; it ends only when that payload no longer reaches the device.")
        case .autonomous:
            let source = policy?.asamAllowlist?.sources.map { "“\($0.profileName)”" }.joined(separator: ", ")
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
