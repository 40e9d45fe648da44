import Foundation
import Storage

/// Crash groups, read from the crash lines' partial indexes.
extension LogQueries {
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
    static func crashGroupCount(since: Date, dialect: Dialect = .sqlite) -> SQL {
        let table: SQL = dialect == .sqlite ? "device_logs INDEXED BY device_logs_crash_times" : "device_logs"
        return """
            SELECT count(*) FROM (SELECT DISTINCT app, signature FROM \(table)
                WHERE kind = 'crash' AND signature IS NOT NULL AND loggedAt >= \(since)) AS groups
            """
    }

    /// Crash groups, most recently seen first, from crash logs logged since `since` (every one
    /// when nil; one app's or every app's, one device's or every device's). The partial index
    /// on crash lines, which holds the device too, keeps this to the crash lines alone.
    static func crashGroups(app: String?, device: RecordID<DeviceRecord>? = nil, since: Date?, limit: Int, dialect: Dialect = .sqlite) -> SQL {
        let versions: SQL = dialect == .sqlite ? "group_concat(DISTINCT nullif(appVersion, ''))" : "string_agg(DISTINCT nullif(appVersion, ''), ',')"
        var sql: SQL = """
            SELECT app, signature, count(*) AS occurrences,
                   count(DISTINCT coalesce(CAST(deviceID AS TEXT), 'name:' || deviceName)) AS devices,
                   \(versions) AS versions,
                   min(loggedAt) AS firstSeen, max(loggedAt) AS lastSeen
            FROM device_logs WHERE kind = 'crash' AND signature IS NOT NULL
            """
        if let since { sql.append(" AND loggedAt >= \(since)") }
        if let app { sql.append(" AND app = \(app)") }
        if let device { sql.append(" AND deviceID = \(device)") }
        sql.append(" GROUP BY app, signature ORDER BY lastSeen DESC LIMIT \(limit)")
        return sql
    }
}
