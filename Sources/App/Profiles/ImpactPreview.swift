import Domain
import Foundation
import Storage

/// A proposed change to assignments or to a profile, and what it would do: the groups it
/// reaches (the assigned group and every group below it), read from the database as they are
/// now and with the change made in memory, handed to `PolicyImpact`. Nothing is written.
enum ImpactPreview {
    enum Change: Sendable {
        case assign(RecordID<ProfileRecord>, to: RecordID<DeviceGroupRecord>)
        case unassign(RecordID<ProfileRecord>, from: RecordID<DeviceGroupRecord>)
        /// The profile saved with new content (as its next version).
        case save(RecordID<ProfileRecord>, content: ProfileContent)

        var profileID: RecordID<ProfileRecord> {
            switch self {
            case .assign(let id, _), .unassign(let id, _), .save(let id, _): id
            }
        }
    }

    /// A preview with what a page names: the profile, the group (assignments), the apps; and
    /// whether the profile is assigned to that group now (an assignment that is already there,
    /// or an unassignment of one that is not, changes nothing).
    struct Result: Sendable {
        let impact: PolicyImpact
        let profile: ProfileRecord
        let group: DeviceGroupRecord?
        let isAssigned: Bool
        let appNames: [String: String]
    }

    /// The impact, with the profile it was read for.
    static func impact(of change: Change, in connection: Connection, contents: ProfileContentCache,
                       loggedVersions: DeviceReports.LoggedVersionLookup) throws -> (PolicyImpact, ProfileRecord) {
        let groups = try connection.fetch(DeviceGroupRecord.query())
        let tree = GroupTree(groups)
        let ids = groups.map { $0.id }
        let profileID: RecordID<ProfileRecord>
        let targets: [RecordID<DeviceGroupRecord>]
        switch change {
        case .assign(let profile, let group), .unassign(let profile, let group):
            (profileID, targets) = (profile, [group])
        case .save(let profile, _):
            profileID = profile
            targets = try connection.fetch(ProfileAssignmentRecord.query().filter("profileID", .equal, profile)).map(\.groupID)
        }
        let profile = try connection.require(ProfileRecord.self, id: profileID)
        let latest = try ProfileReader.latestVersion(of: profileID, in: connection)
        let reached = targets.reduce(into: Set<RecordID<DeviceGroupRecord>>()) { $0.formUnion(tree.subtree(of: $1, among: ids)) }
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
        let devices = try Self.devices(in: reached, connection: connection)
        let loader = PolicyLoader(connection: connection, cache: contents)
        let sides = try reached.sorted { (names[$0] ?? "") < (names[$1] ?? "") }.map { group in
            let before = try loader.reachingProfiles(group: group, groups: groups)
            let lineage = tree.lineage(of: group)
            var after = before
            switch change {
            case .assign(_, let target):
                if !before.contains(where: { $0.source.profileID == profileID.rawValue && $0.source.groupName == names[target] }) {
                    after.append(ReachingProfile(
                        source: PolicySource(profileID: profileID.rawValue, profileName: profile.name, version: latest.number,
                                             groupName: names[target] ?? "", groupDistance: lineage.firstIndex(of: target) ?? 0),
                        content: latest.content))
                }
            case .unassign(_, let target):
                after.removeAll { $0.source.profileID == profileID.rawValue && $0.source.groupName == names[target] }
            case .save(_, let content):
                after = before.map { reaching in
                    guard reaching.source.profileID == profileID.rawValue else { return reaching }
                    let source = reaching.source
                    return ReachingProfile(source: PolicySource(profileID: source.profileID, profileName: content.name, version: latest.number + 1,
                                                                groupName: source.groupName, groupDistance: source.groupDistance),
                                           content: content)
                }
            }
            return (group: group, before: before, after: after)
        }
        let reaching = sides.flatMap { $0.before + $0.after }.map(\.content)
        // Installed apps matter only to Single App Mode, managed app configuration and the SDK's
        // rules, and what devices reported only to the SDK's; without them either side, they stay unread.
        let appsMatter = reaching.contains { $0.payload(of: .singleAppMode) != nil || $0.payload(of: .managedAppConfig) != nil }
        let judgesSDK = reaching.contains { content in Self.sdkRuleKinds.contains { content.payload(of: $0) != nil } }
        var conditions: [Int64: DeviceConditions] = [:]
        if judgesSDK {
            let ruleApps = Set(reaching.flatMap { content -> [String] in
                guard let compliance = content.settings(Compliance.self) else { return [] }
                return compliance.rules.compactMap(\.appIdentifier)
            })
            let rows = sides.flatMap { devices[$0.group] ?? [] }
            conditions = try DeviceReports.conditions(of: rows.map { $0.report() }, ruleApps: ruleApps, in: connection, loggedVersions: loggedVersions)
        }
        let inputs = sides.map { side in
            PolicyImpact.GroupInput(name: names[side.group] ?? "",
                                    devices: (devices[side.group] ?? []).map { $0.device(readingApps: appsMatter, conditions: conditions[$0.id]) },
                                    before: side.before, after: side.after)
        }
        // The apps the catalog can install matter only when a side needs apps.
        let needsApps = reaching.contains { $0.payload(of: .singleAppMode) != nil || $0.payload(of: .requiredApps) != nil }
        let deliverable = needsApps ? Set(try AppRecord.deliveries(connection).keys) : []
        return (PolicyImpact.compute(inputs, deliverableApps: deliverable), profile)
    }

    /// The payloads whose effect depends on what a device reported (`SDKFinding`).
    static let sdkRuleKinds: [PayloadKind] = [.compliance, .compromisedProtection, .geofence, .authentication]

    private struct DeviceRow: Decodable {
        let id: Int64
        let name: String
        let groupID: Int64
        let isSupervised: Bool
        let osVersion: String
        /// JSON, decoded only when a lock or an SDK rule depends on it.
        let installedApps: String
        /// Enrolled over MDM.
        let isReal: Bool

        var apps: [String] { (try? JSONDecoder().decode([String].self, from: Data(installedApps.utf8))) ?? [] }

        func report() -> DeviceReports.Device { DeviceReports.Device(id: id, osVersion: osVersion, installedApps: apps) }

        func device(readingApps: Bool, conditions: DeviceConditions?) -> PolicyImpact.Device {
            PolicyImpact.Device(id: id, name: name, isSupervised: isSupervised, installedApps: readingApps ? apps : [], conditions: conditions, isReal: isReal)
        }
    }

    /// The reached groups' devices, read in one statement with only what the preview judges by.
    private static func devices(in groups: Set<RecordID<DeviceGroupRecord>>,
                                connection: Connection) throws -> [RecordID<DeviceGroupRecord>: [DeviceRow]] {
        guard !groups.isEmpty else { return [:] }
        let rows = try connection.fetch(DeviceRow.self, """
            SELECT d.id, d.name, d.groupID, d.isSupervised, d.osVersion, d.installedApps,
                   CASE WHEN m.state = 'enrolled' THEN 1 ELSE 0 END AS isReal
            FROM devices d LEFT JOIN mdm_devices m ON m.deviceID = d.id
            WHERE d.groupID IN (\(list: groups.map(\.rawValue).sorted()))
            """ + SQL(stringLiteral: " ORDER BY \(connection.dialect.caseless("d.name")), d.id"))
        return Dictionary(grouping: rows) { RecordID<DeviceGroupRecord>($0.groupID) }
    }
}
