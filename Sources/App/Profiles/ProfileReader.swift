import Domain
import Foundation
import Markdown
import Storage

/// Profiles as the pages, the export and the API read them: each answer is one snapshot, and
/// no controller reads the database itself. Changes go through `ProfileStore` and
/// `AssignmentService`.
struct ProfileReader: Sendable {
    let database: Database
    /// The log store's file: the impact preview reads app versions from devices' lines.
    let logs: Database
    let profileContents: ProfileContentCache

    /// A profile as the list shows it; `kinds` is a comma-separated list of payload kinds.
    struct Listing: Decodable, Sendable {
        let id: RecordID<ProfileRecord>
        let name: String
        let identifier: String
        let version: Int
        let updatedAt: Date
        let kinds: String?
        let groups: Int
    }

    /// One page of the list in name order (`limit`, and one more when there is a next page) and
    /// how many profiles there are.
    func listPage(after: RecordID<ProfileRecord>?, limit: Int) async throws -> (profiles: [Listing], total: Int) {
        try await database.read { connection in
            let rows = try connection.rows(ProfileQueries.listPage(after: after, limit: limit + 1, dialect: connection.dialect))
            // Past the last page no row says how many there are.
            let total = try rows.first?.get("total", as: Int.self) ?? connection.count(ProfileRecord.query())
            return (try rows.map { try $0.decode(Listing.self) }, total)
        }
    }

    /// Every profile, by name.
    func all() async throws -> [ProfileRecord] {
        try await database.read { try $0.fetch(ProfileRecord.self, ProfileQueries.allByName($0.dialect)) }
    }

    func latestVersion(of id: RecordID<ProfileRecord>) async throws -> ProfileVersionRecord {
        try await database.read { try Self.latestVersion(of: id, in: $0) }
    }

    /// The version an edit started from (nil when there is no such version) and the latest, read together.
    func editBase(_ number: Int, of id: RecordID<ProfileRecord>) async throws -> (base: ProfileVersionRecord?, latest: ProfileVersionRecord) {
        try await database.read { connection in
            (try? Self.version(number, of: id, in: connection), try Self.latestVersion(of: id, in: connection))
        }
    }

    /// A profile with one of its versions, as the export needs them.
    func export(_ id: RecordID<ProfileRecord>, version number: Int) async throws -> ProfileExportInput {
        let (profile, version, organisation) = try await database.read { connection in
            (try connection.require(ProfileRecord.self, id: id), try Self.version(number, of: id, in: connection),
             try ConsoleSettings.load(from: connection).organisationName)
        }
        let content = version.content
        // A payload keeps its UUID across versions (see `ProfileStore.uuids`). iOS shows the
        // description as it is, so the console's Markdown goes out as the text it reads as.
        return ProfileExportInput(
            identifier: profile.identifier, uuid: version.uuid, displayName: content.name,
            description: MarkdownRenderer.plainText(content.descriptionMarkdown), organization: organisation,
            payloads: content.payloads.map { ExportedPayload(payload: $0, uuid: profile.payloadUUIDs[$0.kind.rawValue] ?? version.uuid) })
    }

    /// A profile with its latest version and the groups it is assigned to, as the API shows it.
    func detail(_ id: RecordID<ProfileRecord>) async throws
        -> (profile: ProfileRecord, latest: ProfileVersionRecord, groups: [DeviceGroupRecord]) {
        try await database.read { connection in
            (try connection.require(ProfileRecord.self, id: id), try Self.latestVersion(of: id, in: connection),
             try connection.fetch(DeviceGroupRecord.self, ProfileQueries.assignedGroups(of: id, dialect: connection.dialect)))
        }
    }

    /// What `change` would do to the devices it reaches, with the names a page words it in,
    /// read in one snapshot; nothing is written. A group that does not exist is answered as
    /// the change itself would answer it.
    func impact(of change: ImpactPreview.Change) async throws -> ImpactPreview.Result {
        try await database.read { connection in
            var group: DeviceGroupRecord?
            switch change {
            case .assign(_, let id):
                // The group is a chosen value, as the assignment itself refuses it.
                group = try connection.find(DeviceGroupRecord.self, id: id)
                guard group != nil else {
                    throw CatalogRefusal.invalid("groupID", "That group does not exist (any more); choose one from the list.")
                }
            case .unassign(_, let id):
                // The group is in the address: not there is a 404, as the unassignment answers.
                group = try connection.require(DeviceGroupRecord.self, id: id)
            case .save: break
            }
            // One read of the other file, from inside this one: its readers never wait on ours.
            let (impact, profile) = try ImpactPreview.impact(of: change, in: connection, contents: profileContents) { requests in
                try logs.readBlocking { try DeviceReports.loggedVersions(requests, in: $0) }
            }
            let isAssigned = try group.map { group in
                try connection.count(ProfileAssignmentRecord.query().filter("profileID", .equal, change.profileID).filter("groupID", .equal, group.id)) > 0
            } ?? false
            return ImpactPreview.Result(impact: impact, profile: profile, group: group, isAssigned: isAssigned,
                                        appNames: try connection.fetch(AppRecord.query()).namesByBundleID)
        }
    }

    /// A profile with every version, newest first.
    func history(_ id: RecordID<ProfileRecord>) async throws -> (profile: ProfileRecord, versions: [ProfileVersionRecord]) {
        try await database.read { connection in
            (try connection.require(ProfileRecord.self, id: id), try Self.versions(of: id, in: connection))
        }
    }

    /// Everything the profile page shows, in one snapshot.
    struct Overview: Sendable {
        let profile: ProfileRecord
        /// The version asked for, or the latest.
        let shown: ProfileVersionRecord
        /// Newest first.
        let versions: [ProfileVersionRecord]
        let groups: [DeviceGroupRecord]
        let assignedGroupIDs: Set<RecordID<DeviceGroupRecord>>
        /// The Single App Mode conflicts and ASAM overlaps it takes part in, as sentences.
        let policyProblems: [String]
    }

    func overview(of id: RecordID<ProfileRecord>, version number: Int?) async throws -> Overview {
        try await database.read { connection in
            let profile = try connection.require(ProfileRecord.self, id: id)
            let assigned = Set(try connection.fetch(ProfileAssignmentRecord.query().filter("profileID", .equal, id)).map(\.groupID))
            let loader = PolicyLoader(connection: connection, cache: profileContents)
            let groups = try loader.groups()
            return Overview(
                profile: profile,
                shown: try number.map { try Self.version($0, of: id, in: connection) } ?? Self.latestVersion(of: id, in: connection),
                versions: try Self.versions(of: id, in: connection),
                groups: groups, assignedGroupIDs: assigned,
                policyProblems: try Self.policyProblems(of: id, assignedTo: assigned, groups: groups, loader: loader))
        }
    }

    /// What each payload must meet against the catalog (`PayloadCatalogRules`), in order.
    func catalogProblems(_ payloads: [Payload]) async throws -> [ValidationErrors] {
        try await database.read { connection in try payloads.map { try PayloadCatalogRules.problems($0, in: connection) } }
    }

    /// For every group the profile reaches (its assigned groups and all below them), the
    /// Single App Mode conflicts and ASAM overlaps it takes part in.
    private static func policyProblems(of id: RecordID<ProfileRecord>, assignedTo assigned: Set<RecordID<DeviceGroupRecord>>,
                                       groups: [DeviceGroupRecord], loader: PolicyLoader) throws -> [String] {
        guard !assigned.isEmpty else { return [] }
        let tree = GroupTree(groups)
        var problems: [String] = []
        for group in groups where !assigned.isDisjoint(with: tree.lineage(of: group.id)) {
            let policy = EffectivePolicy.compute(from: try loader.reachingProfiles(group: group.id, groups: groups))
            problems += policy.problems(involving: id.rawValue, in: group.name)
        }
        return problems
    }

    static func latestVersion(of id: RecordID<ProfileRecord>, in connection: Connection) throws -> ProfileVersionRecord {
        guard let version = try connection.fetchOne(ProfileVersionRecord.query()
            .filter("profileID", .equal, id).order(by: "number", .descending))
        else { throw StorageError.notFound(table: ProfileVersionRecord.tableName) }
        return version
    }

    static func version(_ number: Int, of id: RecordID<ProfileRecord>, in connection: Connection) throws -> ProfileVersionRecord {
        guard let version = try connection.fetchOne(ProfileVersionRecord.query()
            .filter("profileID", .equal, id).filter("number", .equal, number))
        else { throw StorageError.notFound(table: ProfileVersionRecord.tableName) }
        return version
    }

    private static func versions(of id: RecordID<ProfileRecord>, in connection: Connection) throws -> [ProfileVersionRecord] {
        try connection.fetch(ProfileVersionRecord.query().filter("profileID", .equal, id).order(by: "number", .descending))
    }
}
