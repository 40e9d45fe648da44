import Domain
import Foundation
import Storage

/// A page of `GET /api/v1/logs`: the lines, the next page, and how far the search index lags.
struct LogPage: APIAnswer, NamedSchema, DocumentedFields, DocumentedExample {
    static let schemaName = "LogPage"
    let logs: [StoredLogLine]
    let next: String?
    let index: IndexLag

    enum CodingKeys: String, CodingKey, CaseIterable {
        case logs, next, index
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .next ? JSONSchema(description: "The next page's address; absent on the last page") : nil
    }

    /// How far the full-text index is behind: the page is complete either way (lines not yet
    /// indexed are searched too), but searches are slower while many wait.
    struct IndexLag: Codable, Sendable, DocumentedFields {
        let upToDate: Bool
        let unindexedLines: Int
        @Nullable var waitingSince: Date?
        @Nullable var message: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case upToDate, unindexedLines, waitingSince, message
        }

        static var schemaDescription: String? {
            "How far the search index is behind the stored lines. Lines not yet indexed are searched all the same, more slowly."
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            switch field {
            case .unindexedLines: JSONSchema(minimum: 0)
            case .waitingSince: JSONSchema(description: "When the oldest line still to index arrived")
            case .message: JSONSchema(description: "The viewer's sentence when many lines wait")
            case .upToDate: nil
            }
        }

        init(_ lag: LogIndexLag) {
            upToDate = lag.unindexedLines == 0
            unindexedLines = lag.unindexedLines
            waitingSince = lag.waitingSince
            message = lag.notice
        }
    }

    static var example: LogPage {
        LogPage(logs: [.example], next: "/api/v1/logs?app=com.example.clinicnotes&before=48213&limit=100", index: IndexLag(LogIndexLag()))
    }
}

/// One stored line, as the list and the NDJSON export name its fields.
struct StoredLogLine: Codable, Sendable, DocumentedFields {
    let id: RecordID<DeviceLogRecord>
    @Nullable var deviceID: RecordID<DeviceRecord>?
    let deviceName: String
    let app: String
    let appVersion: String
    let level: LogLevel
    let type: SimulatedLog.Kind
    let timestamp: Date
    let receivedAt: Date
    let message: String
    let fields: [String: String]
    @Nullable var signature: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, deviceID, deviceName, app, appVersion, level, type, timestamp, receivedAt, message, fields, signature
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .deviceID: JSONSchema(description: "null once the device is removed; deviceName stays")
        case .signature: JSONSchema(description: "Crash logs: the line that groups them")
        default: nil
        }
    }

    static var example: StoredLogLine {
        StoredLogLine(id: RecordID(48213), deviceID: RecordID(12), deviceName: "Ward 3 iPad", app: "com.example.clinicnotes", appVersion: "2.4",
                      level: .error, type: .application, timestamp: Date(timeIntervalSince1970: 1_795_426_205),
                      receivedAt: Date(timeIntervalSince1970: 1_795_426_260), message: "Sync failed: E_TIMEOUT after 30 s",
                      fields: ["screen": "handover"], signature: nil)
    }
}

extension StoredLogLine {
    init(_ log: DeviceLogRecord) {
        self.init(id: log.id, deviceID: log.deviceID, deviceName: log.deviceName, app: log.app, appVersion: log.appVersion, level: log.level,
                  type: log.kind, timestamp: log.loggedAt, receivedAt: log.receivedAt, message: log.message, fields: log.fields ?? [:],
                  signature: log.signature)
    }
}

/// What `DELETE /api/v1/logs` answers.
struct DeletedLines: APIAnswer, DocumentedExample {
    let deleted: Int
    static var example: DeletedLines { DeletedLines(deleted: 1250) }
}

extension SimulatedLog.Kind: DocumentedEnum {}
