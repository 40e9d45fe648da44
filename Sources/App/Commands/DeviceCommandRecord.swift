import Domain
import Foundation
import Storage

/// One command for a device, and what became of it: the queue's row. The status and its
/// times move only through `CommandProgress`.
struct DeviceCommandRecord: Record {
    static let tableName = "device_commands"

    var id: RecordID<DeviceCommandRecord> = .unsaved
    var uuid: String
    var deviceID: RecordID<DeviceRecord>
    var requestType: DeviceCommand.RequestType
    var parameters: DeviceCommand.Parameters
    private(set) var status: CommandStatus
    var queuedAt: Date
    var queuedBy: String
    private(set) var sentAt: Date?
    /// How often the device answered NotNow, and when it first did.
    private(set) var notNowCount: Int
    private(set) var firstNotNowAt: Date?
    private(set) var completedAt: Date?
    /// The answer in words: what the device did, or why it did not.
    var resultSummary: String
    /// What the device reported beside its status, such as each app's feedback.
    var result: [String: [String: JSONValue]]?
    /// What an MDM client sent with its status, as the XML it sent.
    var report: String?

    init(uuid: String = UUID().uuidString, deviceID: RecordID<DeviceRecord>, command: DeviceCommand, queuedAt: Date, queuedBy: String) {
        self.uuid = uuid
        self.deviceID = deviceID
        requestType = command.requestType
        parameters = command.parameters
        status = .queued
        self.queuedAt = queuedAt
        self.queuedBy = queuedBy
        notNowCount = 0
        resultSummary = ""
    }

    var command: DeviceCommand { DeviceCommand(requestType: requestType, parameters) }

    var progress: CommandProgress {
        get { CommandProgress(status: status, sentAt: sentAt, notNowCount: notNowCount, firstNotNowAt: firstNotNowAt, completedAt: completedAt) }
        set {
            status = newValue.status
            sentAt = newValue.sentAt
            notNowCount = newValue.notNowCount
            firstNotNowAt = newValue.firstNotNowAt
            completedAt = newValue.completedAt
        }
    }
}
