import Domain
import Foundation
import Storage

/// What a device's answer to a policy install or removal means for the profiles it holds:
/// Acknowledged, it holds what the command carried; Error or CommandFormatError, it is tried
/// again after a pause that grows with each refusal of the same content (a minute, then four
/// times longer each time, a day at most), and the reason is kept for the device page.
/// NotNow changes nothing: the queue sends the command again later.
enum MDMPolicyReports {
    static func pause(afterFailures count: Int) -> TimeInterval {
        min(60 * pow(4, Double(max(count, 1) - 1)), 86_400)
    }

    /// Runs in the transaction that recorded the report.
    static func record(_ command: DeviceCommandRecord, at time: Date, connection: Connection) throws {
        guard command.queuedBy == MDMPolicySync.queuedBy, let identifier = command.parameters.profileIdentifier else { return }
        let carried = command.requestType == .removeProfile ? nil : command.parameters.profileDigest
        switch command.status {
        case .acknowledged:
            try acknowledged(command, identifier: identifier, carried: carried, at: time, connection: connection)
            if command.requestType == .installApplication { try MDMAppInstalls.acknowledged(command, at: time, connection: connection) }
        case .error, .formatError:
            guard var row = try connection.fetchOne(MDMDeviceProfileRecord.query().filter("deviceID", .equal, command.deviceID)
                .filter("identifier", .equal, identifier)) else { return }
            let failed = carried ?? MDMDeviceProfileRecord.removal
            row.failures = row.failedDigest == failed ? row.failures + 1 : 1
            row.failedDigest = failed
            row.retryAfter = time.addingTimeInterval(pause(afterFailures: row.failures))
            row.lastError = command.resultSummary
            if row.commandUUID == command.uuid {
                row.sendingDigest = nil
                row.commandUUID = nil
            }
            try connection.update(row)
        default:
            return
        }
    }

    /// The device holds what the command carried. Written without reading the row back: every
    /// install of a large change is answered this way, one turn each.
    private static func acknowledged(_ command: DeviceCommandRecord, identifier: String, carried: String?, at time: Date,
                                     connection: Connection) throws {
        // Another console gave the command newer content after this one sent it: what is wanted
        // is still to come, so the device is due again.
        let raced = try connection.scalar("""
            SELECT count(*) FROM mdm_device_profiles WHERE deviceID = \(command.deviceID) AND identifier = \(identifier)
            AND commandUUID = \(command.uuid) AND sendingDigest <> \(carried ?? MDMDeviceProfileRecord.removal)
            """, as: Int.self) ?? 0
        try connection.execute("""
            UPDATE mdm_device_profiles SET installedDigest = \(carried), installedAt = \(time), failures = 0, failedDigest = NULL, retryAfter = NULL,
                lastError = NULL, sendingDigest = CASE WHEN commandUUID = \(command.uuid) THEN NULL ELSE sendingDigest END,
                commandUUID = CASE WHEN commandUUID = \(command.uuid) THEN NULL ELSE commandUUID END
            WHERE deviceID = \(command.deviceID) AND identifier = \(identifier)
            """)
        if raced > 0 { try markDue([command.deviceID], connection: connection) }
    }

    /// A device that enrolls again, or removes its MDM profile, holds none of the profiles the
    /// console installed: removing the MDM profile removes them with it.
    static func forgetInstalled(of deviceID: RecordID<DeviceRecord>, connection: Connection) throws {
        try connection.execute("UPDATE mdm_device_profiles SET installedDigest = NULL, installedAt = NULL WHERE deviceID = \(deviceID)")
    }

    /// Devices whose refused install's pause is over: marked due (`markDue`), the next run tries again.
    static func readyToRetry(at time: Date, connection: Connection) throws -> [RecordID<DeviceRecord>] {
        struct Ready: Codable { let deviceID: RecordID<DeviceRecord> }
        return try connection.fetch(Ready.self, "SELECT DISTINCT deviceID FROM mdm_device_profiles WHERE retryAfter IS NOT NULL AND retryAfter <= \(time)")
            .map(\.deviceID)
    }

    static func markDue(_ devices: [RecordID<DeviceRecord>], connection: Connection) throws {
        try connection.execute("INSERT INTO mdm_policy_due (id, version) VALUES (?, 1) ON CONFLICT (id) DO UPDATE SET version = mdm_policy_due.version + 1",
                               forEachOf: devices.map { [$0.sqliteValue] })
    }
}
