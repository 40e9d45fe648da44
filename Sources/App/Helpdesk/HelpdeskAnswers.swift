import Domain
import Foundation
import Storage

// What the helpdesk workspace's API answers: a device's new token, its commands, its
// feedback history and its notes.

/// `POST /api/v1/devices/{id}/token`: the token, shown this once.
struct IssuedToken: APIAnswer, DocumentedExample {
    let deviceID: RecordID<DeviceRecord>
    let token: String

    static var example: IssuedToken { IssuedToken(deviceID: RecordID(12), token: "pcd_3mJf0q…") }
}

struct CommandList: APIAnswer {
    let commands: [CommandAnswer]
}

/// A command queued for a device, and what became of it.
struct CommandAnswer: APIAnswer, NamedSchema, DocumentedFields, DocumentedExample {
    static let schemaName = "Command"
    let uuid: String
    let requestType: DeviceCommand.RequestType
    let summary: String
    let status: CommandStatus
    let queuedAt: Date
    let queuedBy: String
    @Nullable var sentAt: Date?
    /// How often the device answered NotNow, and when it first did.
    let notNowCount: Int
    @Nullable var firstNotNowAt: Date?
    @Nullable var completedAt: Date?
    let answer: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case uuid, requestType, summary, status, queuedAt, queuedBy, sentAt, notNowCount, firstNotNowAt, completedAt, answer
    }

    init(_ command: DeviceCommandRecord) {
        uuid = command.uuid
        requestType = command.requestType
        summary = command.command.summary
        status = command.status
        queuedAt = command.queuedAt
        queuedBy = command.queuedBy
        sentAt = command.sentAt
        notNowCount = command.notNowCount
        firstNotNowAt = command.firstNotNowAt
        completedAt = command.completedAt
        answer = command.resultSummary
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .answer ? JSONSchema(description: "What the device said") : nil
    }

    static var example: CommandAnswer {
        var record = DeviceCommandRecord(uuid: "7E1F0C2A-55B1-4C1B-9A4E-0F3C2D1B9A77", deviceID: RecordID(12),
                                         command: DeviceCommand(requestType: .requestLogs, .init(captureMinutes: 15)),
                                         queuedAt: .example("2026-11-23T09:30:00Z"), queuedBy: "hal@example.com")
        try? record.progress.handOut(at: .example("2026-11-23T09:31:02Z"))
        try? record.progress.report(.acknowledged, at: .example("2026-11-23T09:31:10Z"))
        record.resultSummary = "Capturing every level for 15 minutes."
        return CommandAnswer(record)
    }
}

/// `GET /api/v1/devices/{id}/feedback?app=`: every fetch of the app's feedback, newest first.
struct FeedbackHistory: APIAnswer, DocumentedExample {
    let app: String
    let feedback: [Report]

    struct Report: Codable, Sendable {
        let fetchedAt: Date
        let wasReset: Bool
        /// The dictionary as the app wrote it.
        let values: [String: JSONValue]
    }

    static var example: FeedbackHistory {
        FeedbackHistory(app: "com.example.clinicnotes", feedback: [
            Report(fetchedAt: .example("2026-11-23T09:31:10Z"), wasReset: false,
                   values: ["syncedRecords": .number(25), "lastError": .string("E_TIMEOUT")]),
        ])
    }
}

struct NoteList: APIAnswer {
    let notes: [NoteAnswer]
}

/// A helpdesk note on a device.
struct NoteAnswer: APIAnswer, NamedSchema, DocumentedFields, DocumentedExample {
    static let schemaName = "Note"
    let id: RecordID<DeviceNoteRecord>
    let author: String
    let body: String
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, author, body, createdAt, updatedAt
    }

    init(_ note: DeviceNoteRecord) {
        id = note.id
        author = note.authorEmail
        body = note.body
        createdAt = note.createdAt
        updatedAt = note.updatedAt
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .body ? JSONSchema(description: "Markdown") : nil
    }

    static var example: NoteAnswer {
        let written = Date.example("2026-11-23T09:30:00Z")
        return NoteAnswer(DeviceNoteRecord(id: RecordID(4), deviceID: RecordID(12), authorEmail: "hal@example.com",
                                           body: "**Charger replaced**; the old one was frayed.", createdAt: written, updatedAt: written))
    }
}

extension DeviceCommand.RequestType: DocumentedEnum {}
extension CommandStatus: DocumentedEnum {}

extension Date {
    /// A time in an example the document shows; one that does not parse shows as 1970.
    static func example(_ iso: String) -> Date {
        ISOTimestamp.parse(iso) ?? Date(timeIntervalSince1970: 0)
    }
}
