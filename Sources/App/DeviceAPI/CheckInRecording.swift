import Foundation
import Storage

/// When a device last checked in — through the device API or its simulator — kept at most once
/// a minute, so frequent check-ins (an open simulator polls every second) do not queue on the
/// single writer, and as bookkeeping: on a full disk it waits rather than fail the check-in.
enum CheckInRecording {
    static let resolution: TimeInterval = 60

    static func isDue(lastRecorded: Date?, at time: Date) -> Bool {
        lastRecorded.map { time.timeIntervalSince($0) >= resolution } ?? true
    }

    /// Records the check-in in a bookkeeping write of its own, when it is due.
    static func note(_ deviceID: RecordID<DeviceRecord>, lastRecorded: Date?, at time: Date, in database: Database) async throws {
        guard isDue(lastRecorded: lastRecorded, at: time) else { return }
        try await database.writeBookkeeping { try $0.recordCheckIn(of: deviceID, at: time) }
    }
}

extension Connection {
    func recordCheckIn(of deviceID: RecordID<DeviceRecord>, at time: Date) throws {
        _ = try execute("UPDATE devices SET lastCheckInAt = \(time) WHERE id = \(deviceID)")
    }
}
