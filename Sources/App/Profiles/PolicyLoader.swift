import Domain
import Foundation
import Storage

/// Gathers the profile versions that reach a group (through it and every group above it) so
/// the domain can compute the effective policy.
struct PolicyLoader {
    let connection: Connection
    let cache: ProfileContentCache

    func groups() throws -> [DeviceGroupRecord] {
        try connection.fetch(DeviceGroupRecord.query())
    }

    /// What a device in `group` gets (nothing for a device in no group).
    func effectivePolicy(group: RecordID<DeviceGroupRecord>?) throws -> EffectivePolicy {
        guard let group else { return EffectivePolicy.compute(from: []) }
        return EffectivePolicy.compute(from: try reachingProfiles(group: group, groups: try groups()))
    }

    func reachingProfiles(group groupID: RecordID<DeviceGroupRecord>, groups: [DeviceGroupRecord]) throws -> [ReachingProfile] {
        let tree = GroupTree(groups)
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
        let lineage = tree.lineage(of: groupID)
        // One row per assignment with the assigned profile's latest version; the payloads
        // themselves come from the cache, decoded once per version.
        let assignments = try connection.fetch(Assignment.self, """
            SELECT a.profileID, a.groupID, p.name, v.number, v.uuid
            FROM profile_assignments a
            JOIN profiles p ON p.id = a.profileID
            JOIN profile_versions v ON v.profileID = p.id AND v.number = p.version
            WHERE a.groupID IN (\(list: lineage))
            """)
        guard !assignments.isEmpty else { return [] }
        let contents = try cache.contents(ofVersions: Set(assignments.map(\.uuid)), in: connection)
        return assignments.compactMap { assignment in
            guard let content = contents[assignment.uuid], let distance = lineage.firstIndex(of: assignment.groupID) else { return nil }
            return ReachingProfile(
                source: PolicySource(profileID: assignment.profileID.rawValue, profileName: assignment.name, version: assignment.number,
                                     groupName: names[assignment.groupID] ?? "", groupDistance: distance),
                content: content)
        }
    }

    private struct Assignment: Decodable {
        let profileID: RecordID<ProfileRecord>
        let groupID: RecordID<DeviceGroupRecord>
        let name: String
        let number: Int
        let uuid: String
    }
}
