import Domain
import Foundation
import Storage

/// Which profiles reach which device groups. Assigning twice is not an error (the intent
/// holds); unassigning what is not assigned changes nothing. Each change that happens is
/// audited in the same transaction, and bumps the policy generation (a trigger) so devices
/// see it at their next check-in.
struct AssignmentService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    struct Change {
        let profile: ProfileRecord
        let group: DeviceGroupRecord
        /// false when the assignment was already there (or already gone).
        let changed: Bool
    }

    func assign(_ profileID: RecordID<ProfileRecord>, to groupID: RecordID<DeviceGroupRecord>, by actor: Actor) async throws -> Change {
        let time = now()
        return try await database.write { connection in
            let profile = try connection.require(ProfileRecord.self, id: profileID)
            guard let group = try connection.find(DeviceGroupRecord.self, id: groupID) else {
                throw CatalogRefusal.invalid("groupID", "That group does not exist (any more); choose one from the list.")
            }
            let existing = try connection.count(ProfileAssignmentRecord.query().filter("profileID", .equal, profileID).filter("groupID", .equal, groupID))
            guard existing == 0 else { return Change(profile: profile, group: group, changed: false) }
            _ = try connection.insert(ProfileAssignmentRecord(profileID: profileID, groupID: groupID, assignedAt: time, assignedBy: actor.email))
            try connection.audit(.profileAssigned, subject: profile.auditSubject, by: actor, after: "assigned to \(group.name)", at: time)
            return Change(profile: profile, group: group, changed: true)
        }
    }

    func unassign(_ profileID: RecordID<ProfileRecord>, from groupID: RecordID<DeviceGroupRecord>, by actor: Actor) async throws -> Change {
        try await database.write { connection in
            let profile = try connection.require(ProfileRecord.self, id: profileID)
            let group = try connection.require(DeviceGroupRecord.self, id: groupID)
            let removed = try connection.delete(ProfileAssignmentRecord.query().filter("profileID", .equal, profileID).filter("groupID", .equal, groupID))
            if removed > 0 {
                try connection.audit(.profileUnassigned, subject: profile.auditSubject, by: actor, before: "assigned to \(group.name)", at: now())
            }
            return Change(profile: profile, group: group, changed: removed > 0)
        }
    }
}
