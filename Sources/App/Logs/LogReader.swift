import Domain
import Storage

/// Uploaded logs as the log viewer and the API read them, one snapshot per answer.
struct LogReader: Sendable {
    let database: Database

    /// A stored line, with its message's matched words marked when the page was a search.
    struct Row: Decodable, Sendable {
        let line: DeviceLogRecord
        /// The message with U+0001 before and U+0002 after each matched word.
        let highlighted: String?

        init(from decoder: any Decoder) throws {
            line = try DeviceLogRecord(from: decoder)
            highlighted = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .highlighted)
        }

        private enum Key: String, CodingKey { case highlighted }
    }

    /// One page, newest first: `limit` rows, and one more when there is an older page.
    func page(_ filter: LogFilter, limit: Int) async throws -> [Row] {
        try await database.read { try $0.fetch(Row.self, LogQueries.page(filter, limit: limit + 1)) }
    }

    /// What the viewer's filter bar shows beside the rows: the filtered device's name (nil
    /// when there is no device filter or the device is gone) and the catalog's apps by name.
    func labels(device: RecordID<DeviceRecord>?) async throws -> (deviceName: String?, catalog: [AppRecord]) {
        try await database.read { connection in
            (try device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
             try connection.fetch(AppRecord.query().order(by: "name")))
        }
    }
}
