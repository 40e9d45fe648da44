import Domain
import Foundation
import Storage

/// What `GET /api/v1/logs/crashes` answers: crash logs grouped by signature.
struct CrashGroupList: APIAnswer, NamedSchema, DocumentedExample {
    static let schemaName = "CrashGroups"
    let crashGroups: [CrashGroupAnswer]

    static var example: CrashGroupList {
        CrashGroupList(crashGroups: [CrashGroupAnswer(
            app: "com.example.clinicnotes", signature: "Exception Type: EXC_BAD_ACCESS at 0x…", crashes: 14, devices: 6,
            appVersions: ["2.4", "2.4.1"], firstSeen: Date(timeIntervalSince1970: 1_795_161_731), lastSeen: Date(timeIntervalSince1970: 1_795_425_160),
            logs: "/api/v1/logs?app=com.example.clinicnotes&type=crash&signature=Exception%20Type%3A%20EXC_BAD_ACCESS%20at%200x%E2%80%A6")])
    }
}

struct CrashGroupAnswer: Codable, Sendable, DocumentedFields {
    let app: String
    let signature: String
    let crashes: Int
    let devices: Int
    let appVersions: [String]
    let firstSeen: Date
    let lastSeen: Date
    let logs: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, signature, crashes, devices, appVersions, firstSeen, lastSeen, logs
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .signature: JSONSchema(description: "The first meaningful line of the report, addresses blanked")
        case .logs: JSONSchema(description: "GET this for the group's crash logs")
        default: nil
        }
    }
}

extension CrashGroupAnswer {
    /// `device`, when the list was asked for one device, stays in the group's logs link.
    init(_ group: LogQueries.CrashGroup, device: RecordID<DeviceRecord>?) {
        var filter = LogFilter()
        (filter.app, filter.kind, filter.signature, filter.device) = (group.app, .crash, group.signature, device)
        self.init(app: group.app, signature: group.signature, crashes: group.occurrences, devices: group.devices,
                  appVersions: (group.versions ?? "").split(separator: ",").map(String.init), firstSeen: group.firstSeen,
                  lastSeen: group.lastSeen, logs: LogsAPIController.list.link() + "?" + filter.query(before: nil))
    }
}
