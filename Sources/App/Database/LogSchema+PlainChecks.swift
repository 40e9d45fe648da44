import Foundation
import Storage

extension LogSchema {
    /// SQLite checks `kind IN ('application', 'crash')` by building a temporary table of the
    /// list each time a row is checked: for every inserted line, twice (kind and level), a
    /// quarter of the insert's cost (Benchmarks/README.md, issue 25 "Run 4"). The same rule
    /// written as comparisons costs nothing measurable. Both rules accept exactly the same rows,
    /// so nothing on disk changes, and SQLite's documented way to change a CHECK constraint
    /// without rebuilding the table applies: the table's text in `sqlite_schema` is rewritten
    /// and the schema version raised, which makes every other connection read it afresh.
    /// PostgreSQL tests an IN list in place; its table keeps it.
    static let plainChecks = Migration(2, "log line kind and level checked by comparisons") { connection in
        guard connection.dialect == .sqlite else { return }
        guard let table = try connection.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'device_logs'", as: String.self) else { return }
        let rewritten = rewrittenChecks
            .reduce(table) { text, rule in text.replacingOccurrences(of: rule.list, with: rule.comparisons) }
        guard rewritten != table else { return }
        let version = try connection.scalar("PRAGMA schema_version", as: Int.self) ?? 0
        try connection.execute("PRAGMA writable_schema = ON")
        defer { _ = try? connection.execute("PRAGMA writable_schema = OFF") }
        try connection.execute("UPDATE sqlite_schema SET sql = \(rewritten) WHERE type = 'table' AND name = 'device_logs'")
        try connection.execute(script: "PRAGMA schema_version = \(version + 1)")
    }

    /// Each rule as migration 1 wrote it, and as comparisons.
    static let rewrittenChecks: [(list: String, comparisons: String)] = [
        ("CHECK (kind IN ('application', 'crash'))", "CHECK (kind = 'application' OR kind = 'crash')"),
        ("CHECK (level IN ('error', 'warning', 'information', 'debug'))",
         "CHECK (level = 'error' OR level = 'warning' OR level = 'information' OR level = 'debug')"),
    ]
}
