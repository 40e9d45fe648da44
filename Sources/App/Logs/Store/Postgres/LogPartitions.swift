import Foundation
import Storage

/// The log store's day partitions on PostgreSQL (`PostgresLogSchema`): made ahead of the days
/// lines will arrive on, and dropped whole once retention passes them, so removing a day of a
/// large fleet's lines costs what dropping a table does instead of a delete per line.
enum LogPartitions {
    /// Days made ahead of today: the daily retention pass runs well within them.
    static let daysAhead = 3

    /// Makes the partitions for today and the days ahead where missing. A day whose lines
    /// already sit in the default partition (a clock far off) keeps them there.
    static func prepare(around now: Date, in connection: Connection) throws {
        let today = Self.day(containing: now)
        for offset in 0...daysAhead {
            let start = today.addingTimeInterval(Double(offset) * 86_400)
            let name = Self.name(of: start)
            guard try !exists(name, in: connection) else { continue }
            do {
                try connection.savepoint {
                    try connection.execute(script: """
                        CREATE TABLE \(name) PARTITION OF device_logs
                        FOR VALUES FROM ('\(PostgresDay.text(start))') TO ('\(PostgresDay.text(start.addingTimeInterval(86_400)))')
                        """)
                }
            } catch {
                continue  // Lines of that day are in the default partition already: they stay there.
            }
        }
    }

    /// A whole day's partition that retention may drop: every line in it arrived before `cutoff`.
    struct Day: Sendable {
        let name: String
        let end: Date
    }

    /// The day partitions that end at or before `cutoff`, oldest first.
    static func wholeDays(before cutoff: Date, in connection: Connection) throws -> [Day] {
        let names = try connection.rows("""
            SELECT c.relname AS name FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_class p ON p.oid = i.inhparent
            WHERE p.relname = 'device_logs' AND p.relnamespace = current_schema()::regnamespace
            """).map { try $0.get("name", as: String.self) }
        return names.compactMap { name -> Day? in
            guard let start = Self.start(ofPartition: name) else { return nil }
            let end = start.addingTimeInterval(86_400)
            return end <= cutoff ? Day(name: name, end: end) : nil
        }.sorted { $0.end < $1.end }
    }

    /// What each app has in `day`, for its usage and the retention event.
    static func usage(of day: Day, in connection: Connection) throws -> [String: LogRemoval.Purged] {
        let rows = try connection.rows(SQL(verbatim: "SELECT app, count(*) AS lines, coalesce(sum(byteCount), 0) AS bytes FROM \(day.name) GROUP BY app"))
        var usage: [String: LogRemoval.Purged] = [:]
        for row in rows {
            usage[try row.get("app", as: String.self)] = LogRemoval.Purged(lines: try row.get("lines", as: Int.self), bytes: try row.get("bytes", as: Int.self))
        }
        return usage
    }

    static func drop(_ day: Day, in connection: Connection) throws {
        try connection.execute(script: "DROP TABLE \(day.name)")
    }

    // MARK: names

    /// `device_logs_20261124` for the UTC day starting at `start`.
    static func name(of start: Date) -> String {
        let parts = Calendar.utc.dateComponents([.year, .month, .day], from: start)
        return String(format: "device_logs_%04d%02d%02d", parts.year!, parts.month!, parts.day!)
    }

    static func start(ofPartition name: String) -> Date? {
        guard name.hasPrefix("device_logs_"), let digits = Int(name.dropFirst("device_logs_".count)), digits > 19_000_000 else { return nil }
        return Calendar.utc.date(from: DateComponents(year: digits / 10_000, month: digits / 100 % 100, day: digits % 100))
    }

    static func day(containing moment: Date) -> Date {
        Calendar.utc.startOfDay(for: moment)
    }

    private static func exists(_ name: String, in connection: Connection) throws -> Bool {
        try connection.scalar("SELECT count(*) FROM pg_class WHERE relname = \(name) AND relnamespace = current_schema()::regnamespace", as: Int.self) ?? 0 > 0
    }
}

/// A UTC midnight as PostgreSQL reads a `timestamptz` literal.
private enum PostgresDay {
    static func text(_ start: Date) -> String {
        let parts = Calendar.utc.dateComponents([.year, .month, .day], from: start)
        return String(format: "%04d-%02d-%02d 00:00:00+00", parts.year!, parts.month!, parts.day!)
    }
}

extension Calendar {
    /// The Gregorian calendar in UTC, for day boundaries that do not move with a server's zone.
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}
