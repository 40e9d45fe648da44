import Domain
import Foundation
import Storage

/// The catalog as pages and the API read it: each answer is one snapshot, and no controller
/// reads the database itself. Changes go through `CatalogService`.
struct CatalogReader: Sendable {
    let database: Database
    /// The log store's file, for a device page's recent lines.
    let logs: Database
    let profileContents: ProfileContentCache
    /// The groups, apps and settings the device page reads whole.
    let caches: CatalogCaches

    func app(_ id: RecordID<AppRecord>) async throws -> AppRecord {
        try await database.read { try $0.require(AppRecord.self, id: id) }
    }

    /// Where the app's managed configuration stands on real devices; nil when none was given one.
    func configurationDelivery(of bundleID: String) async throws -> MDMAppConfigurationDelivery? {
        try await database.read { try MDMAppConfigurationDelivery.read(bundleID, connection: $0) }
    }

    /// By name, then id.
    func apps() async throws -> [AppRecord] {
        try await database.read { try $0.fetch(AppRecord.query().order(by: "name").order(by: "id")) }
    }

    /// By name.
    func groups() async throws -> [DeviceGroupRecord] {
        try await database.read { try $0.fetch(DeviceGroupRecord.query().order(by: "name")) }
    }

    /// Every group with the number of devices directly in it.
    func groupsWithDeviceCounts() async throws -> (groups: [DeviceGroupRecord], devices: [Int64: Int]) {
        let (groups, counts) = try await database.read { connection in
            (try connection.fetch(DeviceGroupRecord.query().order(by: "name")),
             try connection.fetch(CatalogQueries.GroupCount.self, CatalogQueries.deviceCountsByGroup))
        }
        return (groups, Dictionary(uniqueKeysWithValues: counts.map { ($0.groupID, $0.devices) }))
    }

    /// A group's page in one snapshot: every group with its device count (for the path, the
    /// subgroups and the totals) and the profiles that reach the group, with where each is
    /// assigned.
    struct GroupOverview: Sendable {
        let group: DeviceGroupRecord
        let groups: [DeviceGroupRecord]
        let devices: [Int64: Int]
        let reaching: [ReachingProfile]
    }

    func groupOverview(_ id: RecordID<DeviceGroupRecord>) async throws -> GroupOverview {
        try await database.read { connection in
            let groups = try connection.fetch(DeviceGroupRecord.query().order(by: "name"))
            guard let group = groups.first(where: { $0.id == id }) else { throw StorageError.notFound(table: DeviceGroupRecord.tableName) }
            let counts = try connection.fetch(CatalogQueries.GroupCount.self, CatalogQueries.deviceCountsByGroup)
            return GroupOverview(
                group: group, groups: groups, devices: Dictionary(uniqueKeysWithValues: counts.map { ($0.groupID, $0.devices) }),
                reaching: try PolicyLoader(connection: connection, cache: profileContents).reachingProfiles(group: id, groups: groups)
                    .sorted { ($0.source.groupDistance, $0.source.profileName) < ($1.source.groupDistance, $1.source.profileName) })
        }
    }

    /// A device with its effective policy (nothing reaches a device in no group), in one snapshot.
    func effectivePolicy(of id: RecordID<DeviceRecord>) async throws -> (device: DeviceRecord, policy: EffectivePolicy) {
        try await database.read { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            return (device, try PolicyLoader(connection: connection, cache: profileContents).effectivePolicy(group: device.groupID))
        }
    }

    func device(_ id: RecordID<DeviceRecord>) async throws -> DeviceRecord {
        try await database.read { try $0.require(DeviceRecord.self, id: id) }
    }

    /// A device on the list, with its simulator's lock when it is simulated.
    struct ListedDevice: Decodable, Sendable {
        let device: DeviceRecord
        let simulated: Bool
        let lockMode: String?
        let lockApp: String?
        let compliance: ComplianceState?
        /// Enrolled or unenrolled for a real device (one that enrolled over MDM); nil otherwise.
        let mdmState: MDMDeviceRecord.State?

        init(from decoder: any Decoder) throws {
            device = try DeviceRecord(from: decoder)
            let container = try decoder.container(keyedBy: Key.self)
            simulated = try container.decode(Bool.self, forKey: .simulated)
            lockMode = try container.decodeIfPresent(String.self, forKey: .lockMode)
            lockApp = try container.decodeIfPresent(String.self, forKey: .lockApp)
            compliance = try container.decodeIfPresent(ComplianceState.self, forKey: .compliance)
            mdmState = try container.decodeIfPresent(MDMDeviceRecord.State.self, forKey: .mdmState)
        }

        private enum Key: String, CodingKey { case simulated, lockMode, lockApp, compliance, mdmState }
    }

    /// What each group's effective policy means for the list: the Single App Mode app, or the
    /// apps of a conflict.
    struct GroupPolicySummary: Sendable {
        let singleAppModeApp: String?
        let conflictApps: [String]
        /// The areas the group's devices are fenced into, if a geofence reaches them.
        var geofence: Geofence? = nil
    }

    /// The device list in one snapshot: a page (`limit` devices and one more when there is a
    /// next page), how many match, every group with its policy summary, and the iOS versions
    /// devices run (for the filter's choices).
    struct DeviceList: Sendable {
        let devices: [ListedDevice]
        let total: Int
        let groups: [DeviceGroupRecord]
        let policies: [RecordID<DeviceGroupRecord>: GroupPolicySummary]
        let osVersions: [String]
    }

    func deviceList(_ filter: DeviceListFilter, limit: Int, now: Date) async throws -> DeviceList {
        try await database.read { connection in
            let groups = try connection.fetch(DeviceGroupRecord.query().order(by: "name"))
            let policies = try Self.groupPolicies(groups, connection: connection, contents: profileContents)
            let scope = CatalogQueries.DeviceListScope(filter, groups: groups, policies: policies, now: now)
            let versions = try connection.rows(CatalogQueries.osVersions).compactMap { try? $0.first(as: String.self) }
            return DeviceList(
                devices: try connection.fetch(ListedDevice.self, CatalogQueries.deviceList(filter, scope: scope, limit: limit + 1, dialect: connection.dialect)),
                total: try connection.scalar(CatalogQueries.deviceCount(filter, scope: scope, dialect: connection.dialect), as: Int.self) ?? 0,
                groups: groups, policies: policies,
                osVersions: versions.sorted { $0.compare($1, options: .numeric) == .orderedAscending })
        }
    }

    /// The ids of every device `filter` finds (at most `limit`), as the list would show them now.
    func deviceIDs(_ filter: DeviceListFilter, limit: Int, now: Date) async throws -> [RecordID<DeviceRecord>] {
        try await database.read { connection in
            let groups = try connection.fetch(DeviceGroupRecord.query().order(by: "name"))
            let policies = filter.conflictOnly ? try Self.groupPolicies(groups, connection: connection, contents: profileContents) : [:]
            let scope = CatalogQueries.DeviceListScope(filter, groups: groups, policies: policies, now: now)
            return try connection.rows(CatalogQueries.deviceIDs(filter, scope: scope, limit: limit, dialect: connection.dialect))
                .map { RecordID<DeviceRecord>(try $0.first(as: Int64.self)) }
        }
    }

    /// Real devices that unenrolled from MDM (checked out, or removed their profile).
    func unenrolledRealDevices() async throws -> Set<RecordID<DeviceRecord>> {
        try await database.read { connection in
            Set(try connection.rows("SELECT deviceID FROM mdm_devices WHERE state = 'unenrolled'").map { RecordID<DeviceRecord>(try $0.first(as: Int64.self)) })
        }
    }

    /// Each group's effective policy as the device list and the fleet health strip read it.
    static func groupPolicies(_ groups: [DeviceGroupRecord], connection: Connection,
                              contents: ProfileContentCache) throws -> [RecordID<DeviceGroupRecord>: GroupPolicySummary] {
        let loader = PolicyLoader(connection: connection, cache: contents)
        var policies: [RecordID<DeviceGroupRecord>: GroupPolicySummary] = [:]
        for group in groups {
            let policy = EffectivePolicy.compute(from: try loader.reachingProfiles(group: group.id, groups: groups))
            policies[group.id] = GroupPolicySummary(singleAppModeApp: policy[SingleAppMode.self]?.value.appIdentifier,
                                                     conflictApps: policy.conflictApps, geofence: policy[Geofence.self]?.value)
        }
        return policies
    }

    /// What the device form offers: groups and catalog apps, by name.
    func formChoices() async throws -> (groups: [DeviceGroupRecord], apps: [AppRecord]) {
        try await database.read { connection in
            (try connection.fetch(DeviceGroupRecord.query().order(by: "name")), try connection.fetch(AppRecord.query().order(by: "name")))
        }
    }

    /// Everything the device page shows, in one snapshot.
    struct DeviceOverview: Sendable {
        let device: DeviceRecord
        let groups: [DeviceGroupRecord]
        let apps: [AppRecord]
        /// The profiles reaching its group; nil when it is in no group.
        let reaching: [ReachingProfile]?
        /// The latest twenty, newest first.
        let commands: [DeviceCommandRecord]
        /// What the simulator remembers, for a simulated device: its lock, above all.
        let simulator: SimulatorStateRecord?
        /// The last status beacon an SDK app on it sent.
        let beacon: DeviceBeaconRecord?
        /// For a real device: its MDM enrollment, push token and inventory.
        let mdm: MDMDeviceRecord?
        /// For a real device: the console's profiles on it, and what is on its way.
        var mdmProfiles: [MDMDeviceProfileRecord] = []
        /// For those who read logs: what helpdesk works from.
        var workspace: Workspace?
        /// How often devices are expected to check in (the console's setting).
        let checkInIntervalMinutes: Int
    }

    /// The helpdesk side of a device page; the lines and caps come from the log store's file.
    struct Workspace: Sendable {
        /// The newest lines by the time they were logged, newest first.
        var recentLogs: [LogReader.Row] = []
        /// The last line that arrived from the device (not necessarily one shown): the open page
        /// asks for what arrives after it.
        var lastArrivedLine: Int64?
        /// Each app's most recent feedback, by app.
        let latestFeedback: [AppFeedbackRecord]
        /// Newest first.
        let notes: [DeviceNoteRecord]
        /// Apps on the device whose logs fill three quarters of their cap or more.
        var capWarnings: [LogCapWarning] = []
    }

    static let recentLogCount = 10

    /// On PostgreSQL each statement is a round trip, so the page asks for few and sends those
    /// that do not depend on each other together (`Connection.rows(together:)`): the device with
    /// its simulator state and beacon, its commands, feedback and notes; then the profiles
    /// reaching its group; the groups, apps and settings come from memory (`CatalogCaches`).
    /// From the log store, together: its recent lines (with the last that arrived) and its
    /// apps' storage.
    func overview(of id: RecordID<DeviceRecord>, withWorkspace: Bool = false) async throws -> DeviceOverview {
        var (overview, capBytes) = try await database.read { connection in
            var reads = ReadsTogether()
            let deviceRead = reads.add(CatalogQueries.deviceWithSides(id))
            let commandsRead = reads.add(DeviceCommandRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(20).sql)
            let workspaceReads = withWorkspace ? (
                feedback: reads.add(HelpdeskQueries.latestFeedback(of: id)),
                notes: reads.add(DeviceNoteRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).sql)) : nil
            let answers = try connection.rows(together: reads)
            guard let sides = try answers[deviceRead].first else { throw StorageError.notFound(table: DeviceRecord.tableName) }
            let device = try sides.part(nil).decode(DeviceRecord.self)
            let mdm = try sides.part("mdm").decodeIfFound(MDMDeviceRecord.self)
            var groups = try caches.groups.value(in: connection)
            if let group = device.groupID, !groups.contains(where: { $0.id == group }) {
                // Kept before the device's group was made (another console's new group, whose
                // announcement has not arrived yet): this snapshot's groups instead.
                groups = try connection.fetch(DeviceGroupRecord.query().order(by: "name"))
            }
            let settings = try caches.settings.value(in: connection)
            let workspace = try workspaceReads.map { reads in Workspace(
                latestFeedback: try answers[reads.feedback].map { try $0.decode(AppFeedbackRecord.self) },
                notes: try answers[reads.notes].map { try $0.decode(DeviceNoteRecord.self) }) }
            return (DeviceOverview(
                device: device, groups: groups, apps: try caches.apps.value(in: connection),
                reaching: try device.groupID.map { try PolicyLoader(connection: connection, cache: profileContents).reachingProfiles(group: $0, groups: groups) },
                commands: try answers[commandsRead].map { try $0.decode(DeviceCommandRecord.self) },
                simulator: try sides.part("simulator").decodeIfFound(SimulatorStateRecord.self),
                beacon: try sides.part("beacon").decodeIfFound(DeviceBeaconRecord.self),
                mdm: mdm,
                // Only a real device has them: a simulated device's page asks for nothing more.
                mdmProfiles: mdm == nil ? [] : try connection.fetch(MDMDeviceProfileRecord.query().filter("deviceID", .equal, id).order(by: "identifier")),
                workspace: workspace, checkInIntervalMinutes: settings.checkInIntervalMinutes), settings.logCapBytes)
        }
        guard var workspace = overview.workspace else { return overview }
        (workspace.recentLogs, workspace.lastArrivedLine, workspace.capWarnings) = try await logs.read { [overview] connection in
            var reads = ReadsTogether()
            let recentRead = reads.add(HelpdeskQueries.recentLines(of: id, limit: Self.recentLogCount, dialect: connection.dialect))
            let usageRead = LogCapWarning.query(apps: overview.device.installedApps, capBytes: capBytes).map { reads.add($0) }
            let answers = try connection.rows(together: reads)
            let recent = try answers[recentRead]
            return (try recent.map { try $0.decode(LogReader.Row.self) },
                    // No recent line: the device has none at all.
                    try recent.first?.get(HelpdeskQueries.lastArrivedColumn, as: Int64?.self) ?? nil,
                    try usageRead.map { try LogCapWarning.warnings(answers[$0], capBytes: capBytes) } ?? [])
        }
        overview.workspace = workspace
        return overview
    }
}
