import Domain
import Storage

/// The simulator as its page, live updates and API read it: one snapshot per answer, so no
/// controller reads the database itself. Changes go through `SimulatorService`.
struct SimulatorReader: Sendable {
    let database: Database
    /// The log store's file, for how many lines the device uploaded.
    let logs: Database

    /// What the simulator page shows besides the simulated state.
    struct PageData: Sendable {
        let device: DeviceRecord
        /// The latest forty, newest first.
        let events: [SimulatorEventRecord]
        /// The latest twenty, newest first.
        let commands: [DeviceCommandRecord]
        /// How many log lines the device has uploaded.
        let uploadedLogs: Int
        let catalog: [AppRecord]
        /// The demo story the device belongs to, in a console that shows the stories: its
        /// sample text fills the copy and log boxes.
        let story: DemoStory?
    }

    func page(of id: RecordID<DeviceRecord>) async throws -> PageData {
        let uploadedLogs = try await logs.read { try $0.count(DeviceLogRecord.query().filter("deviceID", .equal, id)) }
        return try await database.read { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            return PageData(
                device: device,
                events: try connection.fetch(SimulatorEventRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(40)),
                commands: try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, id).order(by: "id", .descending).limit(20)),
                uploadedLogs: uploadedLogs,
                catalog: try connection.fetch(AppRecord.query()),
                story: try Self.story(of: device, in: connection))
        }
    }

    static func story(of device: DeviceRecord, in connection: Connection) throws -> DemoStory? {
        guard let groupID = device.groupID, try ConsoleSettings.load(from: connection).showsDemoStories,
              let group = try connection.find(DeviceGroupRecord.self, id: groupID) else { return nil }
        return DemoStory.all.first { $0.group == group.name }
    }

    /// Timeline events after `id`, oldest first: what an event stream sends next.
    func events(of device: RecordID<DeviceRecord>, after id: Int64, limit: Int) async throws -> [SimulatorEventRecord] {
        try await database.read { connection in
            try connection.fetch(SimulatorEventRecord.query().filter("deviceID", .equal, device).filter("id", .greater, id)
                .order(by: "id").limit(limit))
        }
    }

    /// The newest timeline event's id, 0 when there is none: a stream starts after it.
    func latestEventID(of device: RecordID<DeviceRecord>) async throws -> Int64 {
        try await database.read { connection in
            try connection.fetchOne(SimulatorEventRecord.query().filter("deviceID", .equal, device).order(by: "id", .descending))?.id.rawValue ?? 0
        }
    }

    /// The device with this UDID (upper case), if any.
    func device(udid: String) async throws -> DeviceRecord? {
        try await database.read { try $0.fetchOne(DeviceRecord.query().filter("udid", .equal, udid)) }
    }

    /// What a device's state depends on, in one cheap read; nil when the device is gone.
    struct Probe: Decodable, Sendable {
        let revision: Int
        let inputs: String
    }

    func probe(_ id: RecordID<DeviceRecord>) async throws -> Probe? {
        try await database.read { try $0.fetchOne(Probe.self, SimulatorQueries.probe(id)) }
    }
}
