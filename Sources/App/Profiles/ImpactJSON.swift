import Domain
import Foundation

/// A preview's impact as the API's dry runs answer it.
enum ImpactJSON {
    static func object(_ impact: PolicyImpact, appNames: [String: String]) -> [String: Any] {
        func lock(_ change: PolicyImpact.LockChange) -> [String: Any] {
            ["device": change.device, "group": change.group, "from": change.before.map { $0 as Any } ?? NSNull(),
             "to": change.after.map { $0 as Any } ?? NSNull()]
        }
        func sdk(_ change: PolicyImpact.SDKChange) -> [String: Any] {
            ["device": change.device, "group": change.group, "setting": change.finding.setting.rawValue, "effect": change.finding.effect,
             "message": change.finding.sentence { appNames[$0] ?? $0 }]
        }
        return [
            "devicesReached": impact.devicesReached,
            "devicesChanged": impact.devicesChanged,
            "locking": impact.locking.map(lock),
            "unlocking": impact.unlocking.map(lock),
            "switching": impact.switching.map(lock),
            // Judged against what each device last reported; effect "not-known" where it never
            // reported what the rule compares.
            "sdkStarting": impact.sdkStarting.map(sdk),
            "sdkEnding": impact.sdkEnding.map(sdk),
            "groups": impact.groups.map { group in
                ["name": group.name, "devices": group.deviceCount, "newConflict": group.newConflict,
                 "resolvedConflict": group.resolvedConflict,
                 "changes": group.changes.map { change in
                     ["field": change.field, "before": change.before.map { $0 as Any } ?? NSNull(),
                      "after": change.after.map { $0 as Any } ?? NSNull()] as [String: Any]
                 }] as [String: Any]
            },
        ]
    }
}
