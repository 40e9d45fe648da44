import Domain
import Foundation
import Storage

/// A note on a device, in Markdown (rendered sanitised); editable by its author and admins.
struct DeviceNoteRecord: Record {
    static let tableName = "device_notes"

    var id: RecordID<DeviceNoteRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    /// The person who wrote it, also through an API token of theirs; nil once they are removed
    /// and for command-line tokens.
    var authorID: RecordID<User>?
    /// The API token it was written through; nil when written on the page.
    var authorTokenID: RecordID<APITokenRecord>?
    var authorEmail: String
    var body: String
    var createdAt: Date
    var updatedAt: Date
}

/// One fetch of one app's managed feedback on one device.
struct AppFeedbackRecord: Record {
    static let tableName = "app_feedback"

    var id: RecordID<AppFeedbackRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    var app: String
    /// The dictionary as the app wrote it.
    var feedback: [String: JSONValue]
    var fetchedAt: Date
    var commandID: RecordID<DeviceCommandRecord>?
    /// The fetch asked the device to delete the feedback after reporting it.
    var wasReset: Bool
}

extension Connection {
    /// Keeps each app's reported feedback, in the transaction that records the answer.
    func recordFeedback(_ report: [String: [String: JSONValue]], device: RecordID<DeviceRecord>, command: DeviceCommandRecord, at time: Date) throws {
        for (app, feedback) in report.sorted(by: { $0.key < $1.key }) {
            _ = try insert(AppFeedbackRecord(deviceID: device, app: app, feedback: feedback, fetchedAt: time,
                                             commandID: command.id, wasReset: command.parameters.deleteFeedback))
        }
    }
}
