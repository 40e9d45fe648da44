import Domain
import Foundation
import Storage

/// What passes between the console and a device outside its policy: the commands queued for
/// it and its answers to them, and the record that it checked in.
struct DeviceChannelService: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// Why a device's answer to a command was not taken.
    enum AnswerRefusal: Error {
        /// The device has no command with that UUID.
        case unknownCommand
        /// The command was already answered (Acknowledged or Error).
        case alreadyAnswered
    }

    @discardableResult
    func queue(_ command: DeviceCommand, for deviceID: RecordID<DeviceRecord>, by user: User) async throws -> DeviceCommandRecord {
        try await queue(command, for: [deviceID], by: user)[0]
    }

    /// Queues the command for every device, or for none when one of them is gone; each queuing
    /// audited. Returns the queued commands.
    @discardableResult
    func queue(_ command: DeviceCommand, for deviceIDs: [RecordID<DeviceRecord>], by user: User) async throws -> [DeviceCommandRecord] {
        let time = now()
        return try await database.write { connection in
            try deviceIDs.map { deviceID in
                let device = try connection.require(DeviceRecord.self, id: deviceID)
                let queued = try connection.insert(DeviceCommandRecord(
                    uuid: UUID().uuidString, deviceID: deviceID, requestType: command.requestType, parameters: command, status: .queued,
                    queuedAt: time, queuedBy: user.email, completedAt: nil, resultSummary: "", result: nil))
                try connection.audit(.deviceCommand, subject: device.name, by: Actor(user), after: command.summary, at: time)
                return queued
            }
        }
    }

    /// Commands the device has still to answer, oldest first.
    func pending(for deviceID: RecordID<DeviceRecord>) async throws -> [DeviceCommandRecord] {
        try await database.read { connection in
            try connection.fetch(DeviceCommandRecord.query().filter("deviceID", .equal, deviceID)
                .filter("status", in: [CommandStatus.queued.rawValue, CommandStatus.notNow.rawValue]).order(by: "id"))
        }
    }

    /// Records the device's answer, and the feedback an acknowledged feedback request carries;
    /// NotNow leaves the command to be sent again.
    func answer(_ uuid: String, from deviceID: RecordID<DeviceRecord>, status: CommandStatus, summary: String,
                feedback: [String: [String: JSONValue]]? = nil) async throws -> DeviceCommandRecord {
        let time = now()
        return try await database.write { connection in
            guard var command = try connection.fetchOne(DeviceCommandRecord.query().filter("uuid", .equal, uuid).filter("deviceID", .equal, deviceID)) else {
                throw AnswerRefusal.unknownCommand
            }
            guard command.status == .queued || command.status == .notNow else { throw AnswerRefusal.alreadyAnswered }
            command.status = status
            command.completedAt = status == .notNow ? nil : time
            command.resultSummary = summary
            try connection.update(command)
            if status == .acknowledged, command.requestType == .managedApplicationFeedback, let feedback {
                try connection.recordFeedback(feedback, device: deviceID, command: command, at: time)
            }
            return command
        }
    }

    func noteCheckIn(_ device: CheckingInDevice) async throws {
        try await CheckInRecording.note(device.id, lastRecorded: device.lastCheckInAt, at: now(), in: database)
    }
}
