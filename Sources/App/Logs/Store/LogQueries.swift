import Domain
import Foundation
import Storage

/// The log store's SQL that the query builder cannot say, one text where SQLite and PostgreSQL
/// agree and one each (chosen by `Dialect`) where they do not: SQLite searches an FTS5 index
/// kept behind the writer, PostgreSQL a `tsvector` written with each line (`PostgresLogSchema`).
enum LogQueries {
    /// One line's row, written without the record encoder: the upload path inserts up to
    /// 10,000 of them a batch, and Codable's encoding of each was a fifth of its time.
    /// One line's insert, run for every line of a batch on one prepared statement
    /// (`Connection.execute(_:forEachOf:)`) with `insertValues`.
    static func insert(_ dialect: Dialect) -> String {
        switch dialect {
        case .sqlite: """
            INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """
        case .postgres: """
            INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount, search)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, CAST(? AS tsvector))
            """
        }
    }

    /// `insert`'s values for `line`, in its order.
    static func insertValues(_ line: DeviceLogRecord, _ dialect: Dialect) -> [SQLiteValue] {
        var values: [SQLiteValue] = [
            line.deviceID?.sqliteValue ?? .null, .text(line.deviceName), .text(line.app), .text(line.appVersion), .text(line.kind.rawValue),
            .text(line.level.rawValue), .text(line.message), fieldsValue(line.fields),
            line.signature?.sqliteValue ?? .null, line.loggedAt.sqliteValue, line.receivedAt.sqliteValue, .integer(Int64(line.byteCount)),
        ]
        if dialect == .postgres { values.append(.text(LogSearchVector.tsvector(of: line.message))) }
        return values
    }

    /// A line's columns, for reads that decode `DeviceLogRecord` (not `l.*`: on PostgreSQL
    /// that would carry each line's search vector along).
    static let lineColumns = "l.id, l.deviceID, l.deviceName, l.app, l.appVersion, l.kind, l.level, l.message, l.fields, l.signature, l.loggedAt, l.receivedAt, l.byteCount"

    /// The `fields` column: the JSON object the ORM's `[String: String]?` reads back.
    private static func fieldsValue(_ fields: [String: String]?) -> SQLiteValue {
        guard let fields else { return .null }
        var bytes: [UInt8] = []
        LogExport.appendFields(fields, to: &bytes)
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    // MARK: the index behind the writer

    /// The indexer's mark: every line up to it is in the full-text index, none after it.
    /// On PostgreSQL every stored line is searchable: the mark is past any line there will be.
    static func indexedThrough(in connection: Connection) throws -> RecordID<DeviceLogRecord> {
        guard connection.dialect == .sqlite else { return RecordID(Int64.max) }
        return RecordID(try connection.scalar("SELECT indexedThrough FROM log_index_progress WHERE id = 1", as: Int64.self) ?? 0)
    }

    /// The id of the last of the next `limit` lines after `mark`.
    static func lastOfNext(_ limit: Int, after mark: RecordID<DeviceLogRecord>) -> SQL {
        "SELECT max(id) FROM (SELECT id FROM device_logs WHERE id > \(mark) ORDER BY id LIMIT \(limit)) AS next"
    }

    /// Adds the lines after `mark` through `last` to the full-text index in one statement.
    static func index(after mark: RecordID<DeviceLogRecord>, through last: RecordID<DeviceLogRecord>) -> SQL {
        "INSERT INTO device_log_search(rowid, message) SELECT id, message FROM device_logs WHERE id > \(mark) AND id <= \(last)"
    }

    static func moveIndexMark(to last: RecordID<DeviceLogRecord>) -> SQL {
        "UPDATE log_index_progress SET indexedThrough = \(last) WHERE id = 1"
    }

    /// How many lines wait for the index, and since when (`LogIndexLag`): ids only grow, so
    /// the newest id less the mark is the count (less any of them deleted meanwhile), read from
    /// the ends of the table instead of counting a tail that may be millions long.
    static func unindexed(after mark: RecordID<DeviceLogRecord>) -> SQL {
        """
        SELECT coalesce((SELECT max(id) FROM device_logs), 0) - \(mark) AS lines,
               (SELECT receivedAt FROM device_logs WHERE id > \(mark) ORDER BY id LIMIT 1) AS waitingSince
        """
    }

    /// Adds a batch's lines to an app's usage, creating its row on first use.
    static func addUsage(app: String, bytes: Int, lines: Int) -> SQL {
        """
        INSERT INTO log_usage (app, byteCount, lineCount) VALUES (\(app), \(bytes), \(lines))
        ON CONFLICT (app) DO UPDATE SET byteCount = log_usage.byteCount + excluded.byteCount, lineCount = log_usage.lineCount + excluded.lineCount
        """
    }

    static func usage(of apps: [String]) -> SQL {
        "SELECT app, byteCount, lineCount FROM log_usage WHERE app IN (\(list: apps))"
    }

    /// Usage of `apps` (every app when nil) of at least `bytes`, largest first.
    static func usage(of apps: [String]?, atLeast bytes: Int) -> SQL {
        var sql: SQL = "SELECT app, byteCount, lineCount FROM log_usage WHERE byteCount >= \(bytes)"
        if let apps { sql.append(" AND app IN (\(list: apps))") }
        sql.append(" ORDER BY byteCount DESC")
        return sql
    }

    /// Which lines a search reads one way: those up to the indexer's mark through the
    /// full-text index, those after it by checking each message (`LogSearchFunctions`), with
    /// the same meaning. A read takes the mark once and asks for both, so every stored line is
    /// searched exactly once whatever the indexer does meanwhile.
    enum SearchPart: Sendable {
        case indexed(through: RecordID<DeviceLogRecord>)
        case unindexed(after: RecordID<DeviceLogRecord>)
    }

    /// One page of lines newest first: `limit` rows matching `filter`, older than its `before`;
    /// for a search, from one `part`. A search walks the full-text index from the newest match
    /// backwards (FTS5 keeps rowids in order) and checks the other filters on each match, so a
    /// page stops after `limit` rows; without a search the walk is over the table's id, or an
    /// index on (device or app, id). The matched words come back marked with U+0001 and U+0002
    /// (`highlighted`), which a stored message cannot contain.
    /// On PostgreSQL a search comes back without `highlighted`; `LogReader` marks the words.
    static func page(_ filter: LogFilter, limit: Int, part: SearchPart = .unindexed(after: RecordID(0)), dialect: Dialect = .sqlite) -> SQL {
        var sql: SQL
        switch (filter.search, part) {
        case (let search?, .indexed):
            if dialect == .postgres {
                sql = SQL(stringLiteral: "SELECT \(lineColumns), NULL AS highlighted FROM device_logs AS l")
                sql.append(" WHERE l.search @@ CAST(\(search.tsquery) AS tsquery)")
                if let before = filter.before { sql.append(" AND l.id < \(before)") }
                break
            }
            guard case .indexed(let mark) = part else { preconditionFailure() }
            sql = """
                SELECT l.*, highlight(device_log_search, 0, char(1), char(2)) AS highlighted
                FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid
                WHERE device_log_search MATCH \(search.expression) AND device_log_search.rowid <= \(mark)
                """
            if let before = filter.before { sql.append(" AND device_log_search.rowid < \(before)") }
        case (_?, .unindexed(let mark)):
            sql = SQL(stringLiteral: "SELECT l.*, \(LogSearchFunctions.highlight)(")
            sql.append("\(filter.searchText), l.message) AS highlighted FROM device_logs AS l WHERE l.id > \(mark)")
            if let before = filter.before { sql.append(" AND l.id < \(before)") }
        case (nil, _):
            sql = SQL(stringLiteral: "SELECT \(lineColumns), NULL AS highlighted FROM device_logs AS l WHERE TRUE")
            if let before = filter.before { sql.append(" AND l.id < \(before)") }
        }
        appendConditions(of: filter, part: part, to: &sql)
        if case (_?, .indexed) = (filter.search, part), dialect == .sqlite {
            sql.append(" ORDER BY device_log_search.rowid DESC")
        } else {
            sql.append(" ORDER BY l.id DESC")
        }
        sql.append(" LIMIT \(limit)")
        return sql
    }

    /// The filter's conditions other than the page, on lines named `l`; the search too when
    /// `part` is read by checking each message.
    private static func appendConditions(of filter: LogFilter, part: SearchPart, to sql: inout SQL) {
        if let device = filter.device { sql.append(" AND l.deviceID = \(device)") }
        if let app = filter.app { sql.append(" AND l.app = \(app)") }
        if let level = filter.level { sql.append(" AND l.level IN (\(list: LogLevel.allCases.filter { $0 <= level }.map(\.rawValue)))") }
        if let kind = filter.kind { sql.append(" AND l.kind = \(kind.rawValue)") }
        if let signature = filter.signature { sql.append(" AND l.kind = 'crash' AND l.signature = \(signature)") }
        if let from = filter.from { sql.append(" AND l.loggedAt >= \(from)") }
        if let to = filter.to { sql.append(" AND l.loggedAt < \(to)") }
        if let search = filter.search, case .unindexed = part {
            // Cheap first: an ASCII message without any word the search needs is passed over
            // in C. Messages beyond ASCII fold case and accents in ways LIKE does not: the
            // function judges each of them (no words: only they can match).
            sql.append(" AND (")
            for word in search.matcher().requiredASCIIWords {
                sql.append("l.message LIKE \("%" + LikePattern.escaped(word) + "%") ESCAPE '\\' OR ")
            }
            sql.append("length(l.message) <> length(CAST(l.message AS BLOB)))")
            sql.append(SQL(stringLiteral: " AND \(LogSearchFunctions.match)("))
            sql.append("\(filter.searchText), l.message)")
        }
    }

    /// The newest line's id: where an export of "everything matching" stops, so lines that
    /// arrive while it streams are not chased.
    static let newestLineID: SQL = "SELECT max(id) FROM device_logs"

    /// The next `limit` lines matching `filter`, oldest first, after `after` and up to
    /// `through`, as `LogExport.columns`, from one `part` when it is a search; the export reads
    /// a million lines this way, a chunk per read, so memory stays flat and no read holds a
    /// snapshot for long.
    static func export(_ filter: LogFilter, after: RecordID<DeviceLogRecord>?, through last: RecordID<DeviceLogRecord>, limit: Int,
                       part: SearchPart = .unindexed(after: RecordID(0)), columns: String = LogExport.columns, dialect: Dialect = .sqlite) -> SQL {
        var sql: SQL
        if let search = filter.search, case .indexed = part, dialect == .postgres {
            sql = SQL(stringLiteral: "SELECT \(columns) FROM device_logs AS l")
            sql.append(" WHERE l.search @@ CAST(\(search.tsquery) AS tsquery) AND l.id <= \(last)")
            if let after { sql.append(" AND l.id > \(after)") }
        } else if let search = filter.search, case .indexed(let mark) = part {
            sql = SQL(stringLiteral: "SELECT \(columns) FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid")
            sql.append(" WHERE device_log_search MATCH \(search.expression) AND device_log_search.rowid <= \(min(last, mark))")
            if let after { sql.append(" AND device_log_search.rowid > \(after)") }
        } else {
            sql = SQL(stringLiteral: "SELECT \(columns) FROM device_logs AS l")
            sql.append(" WHERE l.id <= \(last)")
            if let after { sql.append(" AND l.id > \(after)") }
            if filter.search != nil, case .unindexed(let mark) = part { sql.append(" AND l.id > \(mark)") }
        }
        appendConditions(of: filter, part: part, to: &sql)
        if filter.search != nil, case .indexed = part, dialect == .sqlite {
            sql.append(" ORDER BY device_log_search.rowid")
        } else {
            sql.append(" ORDER BY l.id")
        }
        sql.append(" LIMIT \(limit)")
        return sql
    }

    /// How many lines matching `filter` (its page ignored) one `part` holds: what a deletion
    /// will remove is both parts'.
    static func count(_ filter: LogFilter, part: SearchPart = .unindexed(after: RecordID(0)), dialect: Dialect = .sqlite) -> SQL {
        var sql: SQL
        switch (filter.search, part) {
        case (let search?, .indexed) where dialect == .postgres:
            sql = "SELECT count(*) FROM device_logs AS l WHERE l.search @@ CAST(\(search.tsquery) AS tsquery)"
        case (let search?, .indexed(let mark)):
            sql = """
                SELECT count(*) FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid
                WHERE device_log_search MATCH \(search.expression) AND device_log_search.rowid <= \(mark)
                """
        case (_?, .unindexed(let mark)):
            sql = "SELECT count(*) FROM device_logs AS l WHERE l.id > \(mark)"
        case (nil, _):
            sql = "SELECT count(*) FROM device_logs AS l WHERE TRUE"
        }
        appendConditions(of: filter, part: part, to: &sql)
        return sql
    }

    static func count(lines: [RecordID<DeviceLogRecord>]) -> SQL {
        "SELECT count(*) FROM device_logs WHERE id IN (\(list: lines))"
    }

    /// Chosen lines, oldest first, as `LogExport.columns`.
    static func export(lines: [RecordID<DeviceLogRecord>], columns: String = LogExport.columns) -> SQL {
        var sql = SQL(stringLiteral: "SELECT \(columns) FROM device_logs AS l")
        sql.append(" WHERE l.id IN (\(list: lines)) ORDER BY l.id")
        return sql
    }

    /// What removing a line takes away from its app's usage.
    struct RemovedLine: Decodable, Sendable {
        let id: RecordID<DeviceLogRecord>
        let app: String
        let byteCount: Int
        let receivedAt: Date
    }

    static let removedLineColumns = "l.id, l.app, l.byteCount, l.receivedAt"

    /// The oldest `limit` lines after `after`, whatever their age: retention walks the table
    /// in id order (the order lines arrived in) and stops at the first line it keeps, so a
    /// pass reads only what it removes and one chunk more.
    static func oldestLines(after: RecordID<DeviceLogRecord>?, limit: Int) -> SQL {
        var sql = SQL(stringLiteral: "SELECT \(removedLineColumns) FROM device_logs AS l")
        if let after { sql.append(" WHERE l.id > \(after)") }
        sql.append(" ORDER BY l.id LIMIT \(limit)")
        return sql
    }

    /// A removed device's lines: they keep its name and lose its id.
    static func forgetDevice(_ device: RecordID<DeviceRecord>) -> SQL {
        "UPDATE device_logs SET deviceID = NULL WHERE deviceID = \(device)"
    }

    /// The devices lines name, by id.
    static let devicesNamed: SQL = "SELECT DISTINCT deviceID FROM device_logs WHERE deviceID IS NOT NULL"

    static func deleteLines(_ ids: [RecordID<DeviceLogRecord>]) -> SQL {
        "DELETE FROM device_logs WHERE id IN (\(list: ids))"
    }

    /// Takes removed lines off an app's usage.
    static func subtractUsage(app: String, bytes: Int, lines: Int) -> SQL {
        """
        UPDATE log_usage SET byteCount = CASE WHEN byteCount > \(bytes) THEN byteCount - \(bytes) ELSE 0 END,
                             lineCount = CASE WHEN lineCount > \(lines) THEN lineCount - \(lines) ELSE 0 END
        WHERE app = \(app)
        """
    }
}
