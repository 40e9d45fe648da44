import Domain
import Storage

/// The catalog as pages and the API read it: each answer is one snapshot, and no controller
/// reads the database itself. Changes go through `CatalogService`.
struct CatalogReader: Sendable {
    let database: Database
    let profileContents: ProfileContentCache

    func app(_ id: RecordID<AppRecord>) async throws -> AppRecord {
        try await database.read { try $0.require(AppRecord.self, id: id) }
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

    func device(_ id: RecordID<DeviceRecord>) async throws -> DeviceRecord {
        try await database.read { try $0.require(DeviceRecord.self, id: id) }
    }

    /// One page of devices in name order: `limit` of them, and one more when there is a next page.
    func devices(group: RecordID<DeviceGroupRecord>?, after: RecordID<DeviceRecord>?, limit: Int) async throws -> [DeviceRecord] {
        try await database.read { try $0.fetch(DeviceRecord.self, CatalogQueries.devicePage(group: group, after: after, limit: limit + 1)) }
    }

    /// The device list page: `devices(…)`, every group, and how many devices the filter matches.
    func devicePage(group: RecordID<DeviceGroupRecord>?, after: RecordID<DeviceRecord>?, limit: Int) async throws
        -> (devices: [DeviceRecord], groups: [DeviceGroupRecord], total: Int) {
        try await database.read { connection in
            (try connection.fetch(DeviceRecord.self, CatalogQueries.devicePage(group: group, after: after, limit: limit + 1)),
             try connection.fetch(DeviceGroupRecord.query().order(by: "name")),
             try connection.count(group.map { DeviceRecord.query().filter("groupID", .equal, $0) } ?? DeviceRecord.query()))
        }
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
    }

    func overview(of id: RecordID<DeviceRecord>) async throws -> DeviceOverview {
        try await database.read { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            let loader = PolicyLoader(connection: connection, cache: profileContents)
            let groups = try loader.groups()
            return DeviceOverview(
                device: device, groups: groups, apps: try connection.fetch(AppRecord.query()),
                reaching: try device.groupID.map { try loader.reachingProfiles(group: $0, groups: groups) },
                commands: try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(20)))
        }
    }
}
