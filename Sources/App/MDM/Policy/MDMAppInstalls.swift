import Domain
import Foundation
import Storage

/// What becomes of an app install after the device accepts it. An acknowledged
/// `InstallApplication` only says the device took the command: the app downloads afterwards
/// (or the person declines it). The device's own InstalledApplicationList decides: asked at
/// once after the acknowledgement, again as the install ages (a minute, five, a quarter of
/// an hour, an hour, six), and the answer reconciled here —
/// - listed and finished: installed (`listedAt`); Single App Mode can follow;
/// - listed as installing: still under way;
/// - listed with a failed download, or still not listed a day after it was accepted: refused,
///   tried again after the usual pause;
/// - gone from the list after it was there: the person removed it; it is installed again.
enum MDMAppInstalls {
    /// Installs accepted and not listed yet (`mdm_device_profiles_installs_under_way` indexes them).
    static let underWayCondition = "identifier LIKE 'com.payloadconsole.app-install.%' AND installedDigest IS NOT NULL AND listedAt IS NULL"

    static let askAgainAfter: [TimeInterval] = [60, 5 * 60, 15 * 60, 3600, 6 * 3600]
    /// How long an accepted install may stay unlisted before it counts as refused.
    static let givenUpAfter: TimeInterval = 86_400

    /// Runs in the transaction that recorded the acknowledgement.
    static func acknowledged(_ command: DeviceCommandRecord, at time: Date, connection: Connection) throws {
        guard let identifier = command.parameters.profileIdentifier else { return }
        try connection.execute("UPDATE mdm_device_profiles SET listedAt = NULL WHERE deviceID = \(command.deviceID) AND identifier = \(identifier)")
        try askForList(command.deviceID, at: time, connection: connection)
    }

    /// Queues InstalledApplicationList unless one already waits.
    static func askForList(_ deviceID: RecordID<DeviceRecord>, at time: Date, connection: Connection) throws {
        let waiting = try connection.fetch(CommandQueue.waiting(for: deviceID)).contains { $0.requestType == .installedApplicationList }
        guard !waiting else { return }
        _ = try connection.insert(DeviceCommandRecord(deviceID: deviceID, command: DeviceCommand(requestType: .installedApplicationList),
                                                      queuedAt: time, queuedBy: MDMPolicySync.queuedBy))
    }

    /// Runs in the transaction that recorded the device's InstalledApplicationList.
    static func reconcile(_ listed: [MDMInventory.App], deviceID: RecordID<DeviceRecord>, at time: Date, connection: Connection) throws {
        let byIdentifier = Dictionary(listed.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first })
        var due = false
        for var row in try connection.fetch(MDMDeviceProfileRecord.query().filter("deviceID", .equal, deviceID)
            .filter("identifier", .like, DeviceAppInstalls.identifierPrefix + "%")) {
            guard let app = DeviceAppInstalls.app(of: row.identifier), let accepted = row.installedDigest else { continue }
            let before = row
            switch byIdentifier[app] {
            case let entry? where entry.downloadFailed:
                refuse(&row, accepted, "The device could not download \(app).", at: time)
                due = true
            case let entry? where !entry.installing:
                if row.listedAt == nil { row.listedAt = time }
            case .some:
                break
            case nil where row.listedAt != nil:
                // It was there and is gone: its person removed it. The policy still needs it.
                row.installedDigest = nil
                row.listedAt = nil
                row.lastError = "Removed from the device by its user; installed again."
                due = true
            case nil:
                break
            }
            if row != before { try connection.update(row) }
        }
        if due { try MDMPolicyReports.markDue([deviceID], connection: connection) }
    }

    private static func refuse(_ row: inout MDMDeviceProfileRecord, _ digest: String, _ reason: String, at time: Date) {
        row.installedDigest = nil
        row.listedAt = nil
        row.failures = row.failedDigest == digest ? row.failures + 1 : 1
        row.failedDigest = digest
        row.retryAfter = time.addingTimeInterval(MDMPolicyReports.pause(afterFailures: row.failures))
        row.lastError = reason
    }

    /// Installs accepted and not listed yet: read first, as most minutes there are none.
    static func underWay(connection: Connection) throws -> [MDMDeviceProfileRecord] {
        // The terms of the partial index that holds exactly these rows, spelled as it does.
        try connection.fetch(MDMDeviceProfileRecord.query().filter(SQL(verbatim: underWayCondition))).filter { $0.sendingDigest == nil }
    }

    /// The minute's look at installs under way: devices whose accepted install passed one of
    /// the ages in the last `interval` are asked for their list again; an install accepted a
    /// day ago and never listed counts as refused. Answers the devices asked.
    static func followUp(_ rows: [MDMDeviceProfileRecord], at time: Date, every interval: TimeInterval,
                         connection: Connection) throws -> [RecordID<DeviceRecord>] {
        var due: [RecordID<DeviceRecord>] = [], asked: [RecordID<DeviceRecord>] = []
        for var row in rows {
            guard let accepted = row.installedAt, let digest = row.installedDigest else { continue }
            let age = time.timeIntervalSince(accepted)
            if age >= givenUpAfter {
                // Written only if the row is still as read: a list answered meanwhile decides instead.
                let app = DeviceAppInstalls.app(of: row.identifier) ?? "the app"
                refuse(&row, digest, "The device accepted the install but did not install \(app) within a day "
                    + "(declined by its user, or no Apple Account to get it with).", at: time)
                let written = try connection.execute("""
                    UPDATE mdm_device_profiles SET installedDigest = NULL, listedAt = NULL, failures = \(row.failures), failedDigest = \(digest),
                        retryAfter = \(row.retryAfter), lastError = \(row.lastError)
                    WHERE id = \(row.id) AND installedDigest = \(digest) AND listedAt IS NULL AND sendingDigest IS NULL
                    """)
                if written == 1 { due.append(row.deviceID) }
            } else if askAgainAfter.contains(where: { age >= $0 && age < $0 + interval }) {
                try askForList(row.deviceID, at: time, connection: connection)
                asked.append(row.deviceID)
            }
        }
        if !due.isEmpty { try MDMPolicyReports.markDue(due, connection: connection) }
        return asked
    }
}
