import Domain
import Foundation
import Storage

/// The log store's SQL that the query builder cannot say: what a second backend would provide again.
enum LogQueries {
    /// One line's row, written without the record encoder: the upload path inserts up to
    /// 10,000 of them a batch, and Codable's encoding of each was a fifth of its time.
    static func insert(_ line: DeviceLogRecord) throws -> SQL {
        let fields = try line.fields.map { try SQLiteValue.json($0, column: "fields") } ?? .null
        return """
            INSERT INTO device_logs (deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount)
            VALUES (\(line.deviceID?.sqliteValue ?? .null), \(line.deviceName), \(line.app), \(line.appVersion), \(line.kind.rawValue),
                    \(line.level.rawValue), \(line.message), \(fields), \(line.signature?.sqliteValue ?? .null),
                    \(line.loggedAt), \(line.receivedAt), \(line.byteCount))
            """
    }

    /// Adds the lines `first` through `last` — one batch, written in this transaction — to the
    /// full-text index in one statement.
    static func index(from first: RecordID<DeviceLogRecord>, through last: RecordID<DeviceLogRecord>) -> SQL {
        "INSERT INTO device_log_search(rowid, message) SELECT id, message FROM device_logs WHERE id BETWEEN \(first) AND \(last)"
    }

    /// Adds a batch's lines to an app's usage, creating its row on first use.
    static func addUsage(app: String, bytes: Int, lines: Int) -> SQL {
        """
        INSERT INTO log_usage (app, byteCount, lineCount) VALUES (\(app), \(bytes), \(lines))
        ON CONFLICT (app) DO UPDATE SET byteCount = byteCount + excluded.byteCount, lineCount = lineCount + excluded.lineCount
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

    /// One page of lines newest first: `limit` rows matching `filter`, older than its `before`.
    /// A search walks the full-text index from the newest match backwards (FTS5 keeps rowids in
    /// order) and checks the other filters on each match, so a page stops after `limit` rows;
    /// without a search the walk is over the table's id, or an index on (device or app, id).
    /// The matched words come back marked with U+0001 and U+0002 (`highlighted`), which a
    /// stored message cannot contain.
    static func page(_ filter: LogFilter, limit: Int) -> SQL {
        var sql: SQL
        if let search = filter.search {
            sql = """
                SELECT l.*, highlight(device_log_search, 0, char(1), char(2)) AS highlighted
                FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid
                WHERE device_log_search MATCH \(search.expression)
                """
            if let before = filter.before { sql.append(" AND device_log_search.rowid < \(before)") }
        } else {
            sql = "SELECT l.*, NULL AS highlighted FROM device_logs AS l WHERE 1"
            if let before = filter.before { sql.append(" AND l.id < \(before)") }
        }
        appendConditions(of: filter, to: &sql)
        sql.append(filter.search == nil ? " ORDER BY l.id DESC" : " ORDER BY device_log_search.rowid DESC")
        sql.append(" LIMIT \(limit)")
        return sql
    }

    /// The filter's conditions other than the search and the page, on lines named `l`.
    private static func appendConditions(of filter: LogFilter, to sql: inout SQL) {
        if let device = filter.device { sql.append(" AND l.deviceID = \(device)") }
        if let app = filter.app { sql.append(" AND l.app = \(app)") }
        if let level = filter.level { sql.append(" AND l.level IN (\(list: LogLevel.allCases.filter { $0 <= level }.map(\.rawValue)))") }
        if let kind = filter.kind { sql.append(" AND l.kind = \(kind.rawValue)") }
        if let signature = filter.signature { sql.append(" AND l.kind = 'crash' AND l.signature = \(signature)") }
        if let from = filter.from { sql.append(" AND l.loggedAt >= \(from)") }
        if let to = filter.to { sql.append(" AND l.loggedAt < \(to)") }
    }

    /// The newest line's id: where an export of "everything matching" stops, so lines that
    /// arrive while it streams are not chased.
    static let newestLineID: SQL = "SELECT max(id) FROM device_logs"

    /// The next `limit` lines matching `filter`, oldest first, after `after` and up to
    /// `through`, as `LogExport.columns`; the export reads a million lines this way, a chunk
    /// per read, so memory stays flat and no read holds a snapshot for long.
    static func export(_ filter: LogFilter, after: RecordID<DeviceLogRecord>?, through last: RecordID<DeviceLogRecord>, limit: Int,
                       columns: String = LogExport.columns) -> SQL {
        var sql: SQL
        if let search = filter.search {
            sql = SQL(stringLiteral: "SELECT \(columns) FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid")
            sql.append(" WHERE device_log_search MATCH \(search.expression) AND device_log_search.rowid <= \(last)")
            if let after { sql.append(" AND device_log_search.rowid > \(after)") }
        } else {
            sql = SQL(stringLiteral: "SELECT \(columns) FROM device_logs AS l")
            sql.append(" WHERE l.id <= \(last)")
            if let after { sql.append(" AND l.id > \(after)") }
        }
        appendConditions(of: filter, to: &sql)
        sql.append(filter.search == nil ? " ORDER BY l.id" : " ORDER BY device_log_search.rowid")
        sql.append(" LIMIT \(limit)")
        return sql
    }

    /// How many lines match `filter` (its page ignored): what a deletion will remove.
    static func count(_ filter: LogFilter) -> SQL {
        var sql: SQL
        if let search = filter.search {
            sql = """
                SELECT count(*) FROM device_log_search CROSS JOIN device_logs AS l ON l.id = device_log_search.rowid
                WHERE device_log_search MATCH \(search.expression)
                """
        } else {
            sql = "SELECT count(*) FROM device_logs AS l WHERE 1"
        }
        appendConditions(of: filter, to: &sql)
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

    static func deleteLines(_ ids: [RecordID<DeviceLogRecord>]) -> SQL {
        "DELETE FROM device_logs WHERE id IN (\(list: ids))"
    }

    /// Takes removed lines off an app's usage.
    static func subtractUsage(app: String, bytes: Int, lines: Int) -> SQL {
        "UPDATE log_usage SET byteCount = max(0, byteCount - \(bytes)), lineCount = max(0, lineCount - \(lines)) WHERE app = \(app)"
    }

    /// A crash signature's occurrences: how many, on how many devices (a removed device counts
    /// by its name), in which app versions, and when first and last.
    struct CrashGroup: Decodable, Sendable {
        let app: String
        let signature: String
        let occurrences: Int
        let devices: Int
        /// Distinct versions, comma separated; empty when no line said its version.
        let versions: String?
        let firstSeen: Date
        let lastSeen: Date
    }

    /// How many crash groups had a crash since `since`: read from the crash lines' time index
    /// (named, because the planner otherwise walks every crash line in the groups' index).
    static func crashGroupCount(since: Date) -> SQL {
        """
        SELECT count(*) FROM (SELECT DISTINCT app, signature FROM device_logs INDEXED BY device_logs_crash_times
            WHERE kind = 'crash' AND signature IS NOT NULL AND loggedAt >= \(since))
        """
    }

    /// Crash groups, most recently seen first, from crash logs logged since `since` (one app's
    /// or every app's, one device's or every device's). The partial index on crash lines,
    /// which holds the device too, keeps this to the crash lines alone.
    static func crashGroups(app: String?, device: RecordID<DeviceRecord>? = nil, since: Date, limit: Int) -> SQL {
        var sql: SQL = """
            SELECT app, signature, count(*) AS occurrences,
                   count(DISTINCT coalesce(CAST(deviceID AS TEXT), 'name:' || deviceName)) AS devices,
                   group_concat(DISTINCT nullif(appVersion, '')) AS versions,
                   min(loggedAt) AS firstSeen, max(loggedAt) AS lastSeen
            FROM device_logs WHERE kind = 'crash' AND signature IS NOT NULL AND loggedAt >= \(since)
            """
        if let app { sql.append(" AND app = \(app)") }
        if let device { sql.append(" AND deviceID = \(device)") }
        sql.append(" GROUP BY app, signature ORDER BY lastSeen DESC LIMIT \(limit)")
        return sql
    }
}
