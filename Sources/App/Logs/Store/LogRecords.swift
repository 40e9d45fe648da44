import Domain
import Foundation
import Storage

/// An uploaded log line. Lines outlive their device (an enterprise wipe or a removal keeps
/// them), so the device's name is copied in.
package struct DeviceLogRecord: Record {
    package static let tableName = "device_logs"

    package var id: RecordID<DeviceLogRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>?
    var deviceName: String
    var app: String
    var appVersion: String
    var kind: SimulatedLog.Kind
    var level: LogLevel
    var message: String
    /// The device's structured fields (stored as a JSON object); nil when it sent none.
    var fields: [String: String]?
    /// Crash logs only: what groups them (`CrashSignature`).
    var signature: String?
    var loggedAt: Date
    var receivedAt: Date
    /// What the line counts against its app's cap.
    var byteCount: Int

    init(_ line: LogLine, device: RecordID<DeviceRecord>, deviceName: String, receivedAt: Date) {
        self.deviceID = device
        self.deviceName = deviceName
        app = line.app
        appVersion = line.appVersion
        kind = line.kind
        level = line.level
        message = line.message
        fields = line.fields.isEmpty ? nil : line.fields
        signature = line.signature
        loggedAt = line.loggedAt
        self.receivedAt = receivedAt
        byteCount = line.byteCount
    }
}

/// One app's share of the log store (`log_usage`), kept beside every change to its lines.
struct LogUsage: Codable, Sendable, Equatable {
    var app: String
    var byteCount: Int
    var lineCount: Int
}

/// Something that happened to the log store without a person doing it.
struct LogEventRecord: Record {
    static let tableName = "log_events"

    enum Kind: String, Codable, Sendable {
        case capReached = "cap_reached"
        case retention
    }

    var id: RecordID<LogEventRecord> = .unsaved
    var app: String?
    var kind: Kind
    var message: String
    var at: Date
}
