import Foundation
import Storage
import Synchronization

/// Enrolled devices whose last Idle found nothing to send them, with when they were last seen,
/// kept in memory so that the next Idle needs no database read: the read is a hand-off to a
/// reader thread and back, most of what such a turn costs once its signature is checked.
///
/// A device's entry goes when its `mdm_devices` row changes, and every entry goes when any
/// command changes (a command row does not say whose queue it is in without a read); a row
/// read while any write committed is not kept. On PostgreSQL another console's commits arrive
/// the same way, so no device is told "nothing waiting" past the commit that queued for it.
final class MDMQuietDevices: Sendable {
    struct Quiet: Sendable {
        /// The device's `mdm_devices` row, whose changes drop the entry.
        let row: Int64
        let lastSeenAt: Date?
    }

    private struct Entries {
        var byDevice: [Int64: Quiet] = [:]
        var deviceByRow: [Int64: Int64] = [:]
    }

    /// More devices than one console enrolls; past it the entries start again.
    static let capacity = 100_000

    private let database: Database
    private let entries = Mutex(Entries())

    init(database: Database) {
        self.database = database
        database.onCommit(tables: [MDMDeviceRecord.tableName, DeviceCommandRecord.tableName]) { [weak self] changes in self?.drop(changes) }
    }

    func quiet(_ deviceID: RecordID<DeviceRecord>) -> Quiet? { entries.withLock { $0.byDevice[deviceID.rawValue] } }

    /// Reads with `read` and keeps what it found quiet, unless a write committed meanwhile.
    func reading(_ deviceID: RecordID<DeviceRecord>, _ read: () async throws -> Quiet?) async throws -> Quiet? {
        let stamp = database.commitCount
        guard let quiet = try await read() else { return nil }
        entries.withLock { entries in
            guard database.commitCount == stamp else { return }
            if entries.byDevice.count >= Self.capacity { entries = Entries() }
            entries.byDevice[deviceID.rawValue] = quiet
            entries.deviceByRow[quiet.row] = deviceID.rawValue
        }
        return quiet
    }

    /// After the device's own last-seen write, whose commit dropped its entry: keeps it quiet,
    /// seen at `time`, when that write is the only one committed since `stamp` (taken before
    /// it) — so the next Idle needs no read. Any other commit leaves it to be read again.
    func seen(_ deviceID: RecordID<DeviceRecord>, _ quiet: Quiet, at time: Date, onlyWriteSince stamp: Int) {
        entries.withLock { entries in
            guard database.commitCount == stamp + 1 else { return }
            entries.byDevice[deviceID.rawValue] = Quiet(row: quiet.row, lastSeenAt: time)
            entries.deviceByRow[quiet.row] = deviceID.rawValue
        }
    }

    private func drop(_ changes: CommittedChanges) {
        entries.withLock { entries in
            guard !changes.changed(DeviceCommandRecord.tableName), let rows = changes.rowIDs(in: MDMDeviceRecord.tableName) else {
                entries = Entries()
                return
            }
            for row in rows {
                if let device = entries.deviceByRow.removeValue(forKey: row) { entries.byDevice[device] = nil }
            }
        }
    }
}
