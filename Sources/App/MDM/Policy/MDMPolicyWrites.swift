import Domain
import Foundation
import Storage

/// The rows one chunk of `MDMPolicyApply` writes, gathered and written together on one prepared
/// statement each: a change that reaches a hundred thousand devices queues as many commands,
/// and the record encoder's work per row (and a statement's text per row) was most of it.
struct MDMPolicyWrites {
    private var commands: [[SQLiteValue]] = []
    private var inserted: [[SQLiteValue]] = []
    private var updated: [[SQLiteValue]] = []
    /// Each command's parameters as JSON, made once per content: every device of a group gets the same.
    private var parameters: [String: SQLiteValue] = [:]

    /// Queues `command` for the device (as `CommandQueue` would, without its audit: the change
    /// that caused it is audited); answers its UUID.
    mutating func queue(_ command: DeviceCommand, for deviceID: RecordID<DeviceRecord>, at time: Date) throws -> String {
        let uuid = UUID().uuidString
        let key = "\(command.requestType.rawValue)|\(command.parameters.profileIdentifier ?? "")|\(command.parameters.profileDigest ?? "")|\(command.parameters.profileName ?? "")"
        let json: SQLiteValue
        if let known = parameters[key] {
            json = known
        } else {
            json = try .column(command.parameters)
            parameters[key] = json
        }
        commands.append([.text(uuid), deviceID.sqliteValue, .text(command.requestType.rawValue), json, .date(time), .text(MDMPolicySync.queuedBy)])
        return uuid
    }

    mutating func save(_ row: MDMDeviceProfileRecord) {
        let values: [SQLiteValue] = [
            row.installedDigest.map(SQLiteValue.text) ?? .null, row.installedAt.map(SQLiteValue.date) ?? .null,
            row.sendingDigest.map(SQLiteValue.text) ?? .null, row.commandUUID.map(SQLiteValue.text) ?? .null, .integer(Int64(row.failures)),
            row.failedDigest.map(SQLiteValue.text) ?? .null, row.retryAfter.map(SQLiteValue.date) ?? .null,
            row.lastError.map(SQLiteValue.text) ?? .null, row.heldBack.map(SQLiteValue.text) ?? .null,
        ]
        if row.id == .unsaved {
            inserted.append(values + [row.deviceID.sqliteValue, .text(row.identifier)])
        } else {
            updated.append(values + [row.id.sqliteValue])
        }
    }

    mutating func write(_ connection: Connection) throws {
        let columns = "installedDigest, installedAt, sendingDigest, commandUUID, failures, failedDigest, retryAfter, lastError, heldBack"
        try connection.execute("""
            INSERT INTO device_commands (uuid, deviceID, requestType, parameters, queuedAt, queuedBy, status, notNowCount, resultSummary)
            VALUES (?, ?, ?, \(connection.dialect == .postgres ? "CAST(? AS jsonb)" : "?"), ?, ?, 'queued', 0, '')
            """, forEachOf: commands)
        try connection.execute("INSERT INTO mdm_device_profiles (\(columns), deviceID, identifier) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               forEachOf: inserted)
        try connection.execute("UPDATE mdm_device_profiles SET " + columns.split(separator: ",").map { "\($0.trimmingCharacters(in: .whitespaces)) = ?" }
            .joined(separator: ", ") + " WHERE id = ?", forEachOf: updated)
        (commands, inserted, updated) = ([], [], [])
    }
}
