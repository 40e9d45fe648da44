import Domain
import Foundation
import Storage

/// The helpdesk workspace's reads beyond the device page: a note to edit, what arrived since
/// the page loaded, and an app's feedback history.
struct HelpdeskReader: Sendable {
    let database: Database
    /// The log store's file, for the lines that arrived.
    let logs: Database

    /// The note and its device; not found when the note belongs to another device.
    func note(_ id: RecordID<DeviceNoteRecord>, of deviceID: RecordID<DeviceRecord>) async throws -> (DeviceRecord, DeviceNoteRecord) {
        try await database.read { connection in
            guard let note = try connection.find(DeviceNoteRecord.self, id: id), note.deviceID == deviceID else {
                throw StorageError.notFound(table: DeviceNoteRecord.tableName)
            }
            return (try connection.require(DeviceRecord.self, id: deviceID), note)
        }
    }

    /// The device's latest `limit` commands, newest first.
    func commands(of deviceID: RecordID<DeviceRecord>, limit: Int) async throws -> [DeviceCommandRecord] {
        try await database.read { connection in
            _ = try connection.require(DeviceRecord.self, id: deviceID)
            return try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, deviceID).order(by: "id", .descending).limit(limit))
        }
    }

    /// The device's notes, newest first.
    func notes(of deviceID: RecordID<DeviceRecord>) async throws -> [DeviceNoteRecord] {
        try await database.read { connection in
            _ = try connection.require(DeviceRecord.self, id: deviceID)
            return try connection.fetch(DeviceNoteRecord.query().filter("deviceID", .equal, deviceID).order(by: "id", .descending))
        }
    }

    /// What changed since a device page loaded: its lines newer than `after` (newest first, at
    /// most `limit`), its latest commands, and the catalog for app names.
    struct Live: Sendable {
        let lines: [LogReader.Row]
        let commands: [DeviceCommandRecord]
        let apps: [AppRecord]
    }

    func live(_ deviceID: RecordID<DeviceRecord>, after: RecordID<DeviceLogRecord>?, limit: Int) async throws -> Live {
        let lines = try await logs.read { try $0.fetch(LogReader.Row.self, HelpdeskQueries.linesAfter(after, device: deviceID, limit: limit)) }
        return try await database.read { connection in
            _ = try connection.require(DeviceRecord.self, id: deviceID)
            return Live(lines: lines,
                        commands: try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, deviceID).order(by: "id", .descending).limit(20)),
                        apps: try connection.fetch(AppRecord.query()))
        }
    }

    /// What decides the policy a device gets — its group and the policy generation — or nil
    /// when the device is gone.
    func policyKey(of deviceID: RecordID<DeviceRecord>) async throws -> PolicyKey? {
        try await database.readSingleStatement { try $0.fetchOne(PolicyKey.self, HelpdeskQueries.policyKey(deviceID)) }
    }

    struct PolicyKey: Decodable, Sendable {
        let groupID: RecordID<DeviceGroupRecord>?
        let generation: Int64
    }

    /// An app's feedback on a device, oldest first (at most `limit`, the newest ones), with
    /// the device and the app's catalog entry.
    func feedbackHistory(_ deviceID: RecordID<DeviceRecord>, app: String, limit: Int) async throws
        -> (device: DeviceRecord, app: AppRecord?, reports: [AppFeedbackRecord], apps: [String]) {
        try await database.read { connection in
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            let reports = try connection.fetch(AppFeedbackRecord.query().filter("deviceID", .equal, deviceID).filter("app", .equal, app)
                .order(by: "id", .descending).limit(limit))
            let apps = try connection.rows(HelpdeskQueries.feedbackApps(of: deviceID)).compactMap { try? $0.first(as: String.self) }
            return (device, try connection.fetchOne(AppRecord.query().filter("bundleID", .equal, app)), reports.reversed(), apps)
        }
    }
}
