import Domain
import Foundation
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

    /// One page newest first — `limit` rows, and one more when there is an older page — with
    /// the filtered device's name (nil without a device filter or once the device is gone) and
    /// the catalog's apps by name, for labels; one snapshot. A search that cannot be read has
    /// no rows.
    struct Page: Sendable {
        var rows: [Row] = []
        var deviceName: String?
        var catalog: [AppRecord] = []
        /// With an app filter on a first page: the app's latest crash groups and its share of the store.
        var crashGroups: [LogQueries.CrashGroup] = []
        var capWarning: LogCapWarning?
    }

    func page(_ filter: LogFilter, limit: Int, appSummary: Int = 0) async throws -> Page {
        try await database.read { connection in
            var page = Page(rows: try Self.rows(filter, limit: limit, in: connection),
                            deviceName: try filter.device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
                            catalog: try connection.fetch(AppRecord.query().order(by: "name")))
            if let app = filter.app, appSummary > 0 {
                page.crashGroups = try connection.fetch(LogQueries.CrashGroup.self, LogQueries.crashGroups(app: app, device: filter.device, since: .distantPast, limit: appSummary))
                page.capWarning = try LogCapWarning.for(apps: [app], in: connection).first
            }
            return page
        }
    }

    /// Crash groups seen since `since`, one app's or every app's, one device's or every
    /// device's, most recently seen first, with the catalog's apps by name for labels and the
    /// device's name; one snapshot.
    func crashGroups(app: String?, device: RecordID<DeviceRecord>?, since: Date, limit: Int) async throws
        -> (groups: [LogQueries.CrashGroup], catalog: [AppRecord], deviceName: String?) {
        try await database.read { connection in
            (try connection.fetch(LogQueries.CrashGroup.self, LogQueries.crashGroups(app: app, device: device, since: since, limit: limit)),
             try connection.fetch(AppRecord.query().order(by: "name")),
             try device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name })
        }
    }

    /// A chunk of an export, oldest first: `LogQueries.export`. Each chunk is its own read.
    func exportChunk(_ filter: LogFilter, after: RecordID<DeviceLogRecord>?, through last: RecordID<DeviceLogRecord>, limit: Int) async throws -> [Storage.Row] {
        try await database.read { try $0.rows(LogQueries.export(filter, after: after, through: last, limit: limit)) }
    }

    func exportLines(_ ids: [RecordID<DeviceLogRecord>]) async throws -> [Storage.Row] {
        try await database.read { try $0.rows(LogQueries.export(lines: ids)) }
    }

    /// The names a selection's summary uses: its device's and its app's, where it names them.
    struct SelectionLabels: Sendable {
        var deviceName: String?
        var appName: String?
    }

    func labels(of selection: LogRemoval.Selection) async throws -> SelectionLabels {
        try await database.read { try Self.labels(of: selection, in: $0) }
    }

    /// What a deletion would remove, for its confirmation: how many lines, and their labels.
    func deletionPreview(_ selection: LogRemoval.Selection) async throws -> (count: Int, labels: SelectionLabels) {
        try await database.read { connection in
            let count = switch selection {
            case .lines(let ids): try connection.scalar(LogQueries.count(lines: ids), as: Int.self) ?? 0
            case .matching(let filter): try connection.scalar(LogQueries.count(filter), as: Int.self) ?? 0
            }
            return (count, try Self.labels(of: selection, in: connection))
        }
    }

    private static func labels(of selection: LogRemoval.Selection, in connection: Connection) throws -> SelectionLabels {
        guard case .matching(let filter) = selection else { return SelectionLabels() }
        return SelectionLabels(
            deviceName: try filter.device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
            appName: try filter.app.flatMap { try connection.fetchOne(AppRecord.query().filter("bundleID", .equal, $0))?.name })
    }

    /// The newest stored line, where an export of everything matching ends.
    func newestLineID() async throws -> RecordID<DeviceLogRecord>? {
        try await database.read { try $0.scalar(LogQueries.newestLineID, as: Int64.self) }.map { RecordID($0) }
    }

    /// The rows alone, as `GET /api/v1/logs` answers them.
    func rows(_ filter: LogFilter, limit: Int) async throws -> [Row] {
        try await database.read { try Self.rows(filter, limit: limit, in: $0) }
    }

    private static func rows(_ filter: LogFilter, limit: Int, in connection: Connection) throws -> [Row] {
        filter.searchProblem == nil ? try connection.fetch(Row.self, LogQueries.page(filter, limit: limit + 1)) : []
    }
}
