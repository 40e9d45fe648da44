import Domain
import Foundation
import Storage

/// Uploaded logs as the log viewer and the API read them: the lines in one snapshot of the log
/// store, the names beside them (devices, apps, the cap) from the console's file.
package struct LogReader: Sendable {
    let logs: Database
    let console: Database

    package init(logs: Database, console: Database) {
        self.logs = logs
        self.console = console
    }

    /// A stored line, with its message's matched words marked when the page was a search.
    struct Row: Decodable, Sendable {
        let line: DeviceLogRecord
        /// The message with U+0001 before and U+0002 after each matched word.
        let highlighted: String?

        init(from decoder: any Decoder) throws {
            line = try DeviceLogRecord(from: decoder)
            highlighted = try decoder.container(keyedBy: Key.self).decodeIfPresent(String.self, forKey: .highlighted)
        }

        init(line: DeviceLogRecord, highlighted: String?) {
            self.line = line
            self.highlighted = highlighted
        }

        private enum Key: String, CodingKey { case highlighted }
    }

    /// One page newest first — `limit` rows, and one more when there is an older page — with
    /// the filtered device's name (nil without a device filter or once the device is gone),
    /// the catalog's apps by name, for labels, and how far the index is behind when the page
    /// is a search. A search that cannot be read has no rows.
    struct Page: Sendable {
        var rows: [Row] = []
        var deviceName: String?
        var catalog: [AppRecord] = []
        /// With an app filter on a first page: the app's latest crash groups and its share of the store.
        var crashGroups: [LogQueries.CrashGroup] = []
        var capWarning: LogCapWarning?
        var indexLag = LogIndexLag()
    }

    func page(_ filter: LogFilter, limit: Int, appSummary: Int = 0) async throws -> Page {
        let (deviceName, catalog, capBytes) = try await console.read { connection in
            (try filter.device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
             try connection.fetch(AppRecord.query().order(by: "name")),
             try ConsoleSettings.load(from: connection).logCapBytes)
        }
        return try await logs.read { connection in
            let (rows, lag) = try Self.rows(filter, limit: limit, in: connection)
            var page = Page(rows: rows, deviceName: deviceName, catalog: catalog, indexLag: lag)
            if let app = filter.app, appSummary > 0 {
                page.crashGroups = try connection.fetch(LogQueries.CrashGroup.self, LogQueries.crashGroups(app: app, device: filter.device, since: nil, limit: appSummary, dialect: connection.dialect))
                page.capWarning = try LogCapWarning.for(apps: [app], capBytes: capBytes, in: connection).first
            }
            return page
        }
    }

    /// Crash groups seen since `since` (ever, when nil), one app's or every app's, one device's
    /// or every device's, most recently seen first, with the catalog's apps by name for labels
    /// and the device's name.
    func crashGroups(app: String?, device: RecordID<DeviceRecord>?, since: Date?, limit: Int) async throws
        -> (groups: [LogQueries.CrashGroup], catalog: [AppRecord], deviceName: String?) {
        let groups = try await logs.read { connection in
            try connection.fetch(LogQueries.CrashGroup.self, LogQueries.crashGroups(app: app, device: device, since: since, limit: limit, dialect: connection.dialect))
        }
        return try await console.read { connection in
            (groups, try connection.fetch(AppRecord.query().order(by: "name")),
             try device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name })
        }
    }

    /// A chunk of an export, oldest first: `LogQueries.export`. Each chunk is its own read.
    package func exportChunk(_ filter: LogFilter, after: RecordID<DeviceLogRecord>?, through last: RecordID<DeviceLogRecord>, limit: Int) async throws -> [Storage.Row] {
        try await logs.read { connection in
            try Self.searchingBothParts(filter, limit: limit, in: connection) { part, limit in
                try connection.rows(LogQueries.export(filter, after: after, through: last, limit: limit, part: part, dialect: connection.dialect))
            }
        }
    }

    /// Reads up to `limit` rows across both parts of a search under one mark: oldest first,
    /// the indexed lines and then those after the mark; newest first, the other way round.
    /// Without a search, the one query `read` makes. `mark` is the indexer's, when the caller
    /// has read it in this snapshot already.
    static func searchingBothParts<T>(_ filter: LogFilter, limit: Int, newestFirst: Bool = false, mark: RecordID<DeviceLogRecord>? = nil,
                                      in connection: Connection, _ read: (LogQueries.SearchPart, Int) throws -> [T]) throws -> [T] {
        guard filter.search != nil else { return try read(.unindexed(after: RecordID(0)), limit) }
        let mark = try mark ?? LogQueries.indexedThrough(in: connection)
        // PostgreSQL indexes each line as it is stored: there is no second part.
        guard connection.dialect == .sqlite else { return try read(.indexed(through: mark), limit) }
        let parts: [LogQueries.SearchPart] = newestFirst ? [.unindexed(after: mark), .indexed(through: mark)] : [.indexed(through: mark), .unindexed(after: mark)]
        var rows = try read(parts[0], limit)
        if rows.count < limit { rows += try read(parts[1], limit - rows.count) }
        return rows
    }

    func exportLines(_ ids: [RecordID<DeviceLogRecord>]) async throws -> [Storage.Row] {
        try await logs.read { try $0.rows(LogQueries.export(lines: ids)) }
    }

    /// The names a selection's summary uses: its device's and its app's, where it names them.
    struct SelectionLabels: Sendable {
        var deviceName: String?
        var appName: String?
    }

    func labels(of selection: LogRemoval.Selection) async throws -> SelectionLabels {
        try await console.read { try Self.labels(of: selection, in: $0) }
    }

    /// What a deletion would remove, for its confirmation: how many lines, and their labels.
    func deletionPreview(_ selection: LogRemoval.Selection) async throws -> (count: Int, labels: SelectionLabels) {
        let count = try await logs.read { connection in
            switch selection {
            case .lines(let ids): return try connection.scalar(LogQueries.count(lines: ids), as: Int.self) ?? 0
            case .matching(let filter):
                guard filter.search != nil else { return try connection.scalar(LogQueries.count(filter), as: Int.self) ?? 0 }
                let mark = try LogQueries.indexedThrough(in: connection)
                let parts: [LogQueries.SearchPart] = connection.dialect == .sqlite ? [.indexed(through: mark), .unindexed(after: mark)] : [.indexed(through: mark)]
                return try parts.reduce(0) { total, part in
                    total + (try connection.scalar(LogQueries.count(filter, part: part, dialect: connection.dialect), as: Int.self) ?? 0)
                }
            }
        }
        return (count, try await labels(of: selection))
    }

    private static func labels(of selection: LogRemoval.Selection, in connection: Connection) throws -> SelectionLabels {
        guard case .matching(let filter) = selection else { return SelectionLabels() }
        return SelectionLabels(
            deviceName: try filter.device.flatMap { try connection.find(DeviceRecord.self, id: $0)?.name },
            appName: try filter.app.flatMap { try connection.fetchOne(AppRecord.query().filter("bundleID", .equal, $0))?.name })
    }

    /// The newest stored line, where an export of everything matching ends.
    package func newestLineID() async throws -> RecordID<DeviceLogRecord>? {
        try await logs.read { try $0.scalar(LogQueries.newestLineID, as: Int64.self) }.map { RecordID($0) }
    }

    /// The rows alone, as `GET /api/v1/logs` answers them, and how far the index is behind.
    func rows(_ filter: LogFilter, limit: Int) async throws -> (rows: [Row], indexLag: LogIndexLag) {
        try await logs.read { try Self.rows(filter, limit: limit, in: $0) }
    }

    /// `limit` rows and one more, newest first: for a search, first those after the indexer's
    /// mark (the newest lines), then the indexed ones.
    private static func rows(_ filter: LogFilter, limit: Int, in connection: Connection) throws -> (rows: [Row], indexLag: LogIndexLag) {
        let mark = try LogQueries.indexedThrough(in: connection)
        let lag = try LogIndexLag.read(after: mark, in: connection)
        guard filter.searchProblem == nil else { return ([], lag) }
        let rows = try searchingBothParts(filter, limit: limit + 1, newestFirst: true, mark: mark, in: connection) { part, limit in
            try connection.fetch(Row.self, LogQueries.page(filter, limit: limit, part: part, dialect: connection.dialect))
        }
        // SQLite's index marks the matched words as it reads; PostgreSQL's is marked here, by
        // the matcher that reads SQLite's unindexed lines the same way.
        if let search = filter.search, connection.dialect == .postgres {
            let matcher = search.matcher()
            return (rows.map { Row(line: $0.line, highlighted: matcher.highlighted($0.line.message)) }, lag)
        }
        return (rows, lag)
    }
}
