import Domain
import Foundation
import Storage

/// A profile's identity and the number of its latest version.
package struct ProfileRecord: VersionedRecord {
    package static let tableName = "profiles"

    package var id: RecordID<ProfileRecord> = .unsaved
    /// Never changes: a device replaces an installed profile with the same identifier.
    var identifier: String
    /// The latest version's name, kept here so lists need no join.
    var name: String
    package var version: Int
    /// One UUID per payload kind, minted when the kind first appears and kept across versions
    /// so a re-installed profile updates its payloads in place.
    var payloadUUIDs: [String: String]
    /// The latest version's payload kinds, for the list page.
    var payloadKinds: [PayloadKind]
    var createdAt: Date
    var updatedAt: Date
}

/// One immutable version of a profile.
struct ProfileVersionRecord: Record {
    static let tableName = "profile_versions"

    var id: RecordID<ProfileVersionRecord> = .unsaved
    var profileID: RecordID<ProfileRecord>
    var number: Int
    /// The profile's PayloadUUID in this version's export.
    var uuid: String
    var content: ProfileContent
    /// What changed, in words ("Edited Single App Mode", "Restored version 2").
    var note: String
    var authorID: RecordID<User>?
    var authorEmail: String
    var createdAt: Date
}

/// A profile assigned to a device group: it reaches every device in the group and below.
package struct ProfileAssignmentRecord: Record {
    package static let tableName = "profile_assignments"

    package var id: RecordID<ProfileAssignmentRecord> = .unsaved
    var profileID: RecordID<ProfileRecord>
    var groupID: RecordID<DeviceGroupRecord>
    var assignedAt: Date
    var assignedBy: String

    package init(id: RecordID<ProfileAssignmentRecord> = .unsaved, profileID: RecordID<ProfileRecord>, groupID: RecordID<DeviceGroupRecord>,
                 assignedAt: Date, assignedBy: String) {
        self.id = id
        self.profileID = profileID
        self.groupID = groupID
        self.assignedAt = assignedAt
        self.assignedBy = assignedBy
    }
}

extension ProfileRecord {
    /// How the audit log names a profile: its name and the identifier devices know it by.
    var auditSubject: String { "\(name) (\(identifier))" }
}
