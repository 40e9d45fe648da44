import Domain
import Foundation

/// A preview's impact as the API's dry runs answer it.
enum ImpactJSON {
    static func object(_ impact: PolicyImpact) -> [String: Any] {
        func lock(_ change: PolicyImpact.LockChange) -> [String: Any] {
            ["device": change.device, "group": change.group, "from": change.before.map { $0 as Any } ?? NSNull(),
             "to": change.after.map { $0 as Any } ?? NSNull()]
        }
        return [
            "devicesReached": impact.devicesReached,
            "devicesChanged": impact.devicesChanged,
            "locking": impact.locking.map(lock),
            "unlocking": impact.unlocking.map(lock),
            "switching": impact.switching.map(lock),
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
