import Domain
import Foundation
import Storage

/// Gathers the profile versions that reach a group (through it and every group above it) so
/// the domain can compute the effective policy.
struct PolicyLoader {
    let connection: Connection

    func groups() throws -> [DeviceGroupRecord] {
        try connection.fetch(DeviceGroupRecord.query())
    }

    func reachingProfiles(group groupID: RecordID<DeviceGroupRecord>, groups: [DeviceGroupRecord]) throws -> [ReachingProfile] {
        let tree = GroupTree(parents: Dictionary(uniqueKeysWithValues: groups.compactMap { g in g.parentID.map { (g.id!, $0) } }))
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id!, $0.name) })
        let lineage = tree.lineage(of: groupID)
        let assignments = try connection.fetch(ProfileAssignmentRecord.query().filter("groupID", in: lineage))
        guard !assignments.isEmpty else { return [] }
        let profileIDs = Array(Set(assignments.map(\.profileID)))
        let profiles = Dictionary(uniqueKeysWithValues: try connection.fetch(ProfileRecord.query().filter("id", in: profileIDs)).map { ($0.id!, $0) })
        let latest = try connection.fetch(ProfileVersionRecord.self, """
            SELECT v.* FROM profile_versions v JOIN profiles p ON p.id = v.profileID AND p.version = v.number
            WHERE p.id IN (\(list: profileIDs))
            """)
        let contents = Dictionary(uniqueKeysWithValues: latest.map { ($0.profileID, $0) })
        return assignments.compactMap { assignment in
            guard let profile = profiles[assignment.profileID], let version = contents[assignment.profileID],
                  let distance = lineage.firstIndex(of: assignment.groupID) else { return nil }
            return ReachingProfile(
                source: PolicySource(profileID: assignment.profileID.rawValue, profileName: profile.name, version: version.number,
                                     groupName: names[assignment.groupID] ?? "", groupDistance: distance),
                content: version.content)
        }
    }
}
