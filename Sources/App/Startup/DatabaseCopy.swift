import Foundation
import Storage

/// `payload-console copy`: moves a console from its SQLite files to a PostgreSQL database —
/// every table of the console and of its log store, ids kept, sequences moved past them, row
/// counts checked before anything is committed. The target must be empty (a fresh database or
/// schema): copying into a console in use would mix two fleets.
///
/// All or nothing: the console's tables are written in one transaction and the log store's in
/// a second, begun and committed inside the first, so a failure (or a stop) anywhere leaves
/// the target as it was. Only a stop in the moment between the two commits leaves the log
/// store's rows alone, and the next copy says so and how to start over.
///
/// The source is left as it was: a console serving it is refused (`ServingMark`), and so is a
/// file an older console last served — upgrading it is starting this version on it, not a copy's.
public struct DatabaseCopy: Sendable {
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Rows read from the source at a time, and written in one statement.
    static let chunkSize = 500

    let from: LogStoreFiles
    let to: LogStoreFiles
    let target: PostgresServer
    let progress: @Sendable (String) -> Void

    /// Opens both — the source as it is, the target migrated to the current schema — and
    /// refuses what cannot be copied.
    public static func prepare(from source: String, sourceLogs: String? = nil, to target: String,
                               progress: @escaping @Sendable (String) -> Void) throws -> DatabaseCopy {
        guard case .sqlite = try DatabaseLocation(source) else { throw Refusal(description: "--from must be a console's SQLite file") }
        guard case .postgres(let server) = try DatabaseLocation(target) else { throw Refusal(description: "--to must be a postgres:// database URL") }
        guard FileManager.default.fileExists(atPath: source) else { throw Refusal(description: "There is no console file at \(source).") }
        if try ServingMark.isServed(source) {
            throw Refusal(description: "A console is serving \(source): stop it first, so that nothing it writes during the copy is left behind, then copy.")
        }
        let logsPath = sourceLogs ?? LogStoreFiles.logsPath(beside: source)
        let upgrade = "Upgrade it first with this version — payload-console migrate --db \(source) — then copy."
        guard FileManager.default.fileExists(atPath: logsPath) else {
            throw Refusal(description: "There is no log store at \(logsPath): \(source) was last served by an older console. \(upgrade)")
        }
        let from = LogStoreFiles(console: try Database(path: source),
                                 logs: try Database(path: logsPath, functions: LogSearchFunctions.all, background: true))
        for (database, migrations) in [(from.console, Schema.migrations), (from.logs, LogSchema.migrations)] {
            let missing = Set(migrations.map(\.version)).subtracting(try Migrator(migrations).appliedVersions(in: database))
            guard missing.isEmpty else {
                throw Refusal(description: "\(database.path) was last served by an older console (migration \(missing.min()!) and later not applied); a copy leaves its source as it is. \(upgrade)")
            }
        }
        let to = try LogStoreFiles.open(consolePath: target).files
        return DatabaseCopy(from: from, to: to, target: server, progress: progress)
    }

    /// What was copied: rows per table.
    public struct Summary: Sendable {
        public var rows: [String: Int] = [:]
        public var seconds: Double = 0
        public var total: Int { rows.values.reduce(0, +) }
    }

    public func run() async throws -> Summary {
        let started = Date()
        let consolePlan = try await CopyPlan.make(from: from.console, to: to.console)
        let logsPlan = try await CopyPlan.make(from: from.logs, to: to.logs)
        try await refuseUnlessEmpty(consolePlan, logsPlan)
        let (from, to) = (from, to)
        var summary = Summary()
        summary.rows = try await to.console.write { console in
            var rows = try copy(consolePlan, from: from.console, into: console)
            try to.logs.writeBlocking { logs in
                try preparePartitions(for: from.logs, in: logs)
                rows.merge(try copy(logsPlan, from: from.logs, into: logs)) { $1 }
            }
            return rows
        }
        progress("Gathering the planner's statistics")
        try await consolePlan.analyze(in: to.console)
        try await logsPlan.analyze(in: to.logs)
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Refuses a target that holds rows of its own, saying whether they look like a copy
    /// stopped part-way and how to start over.
    private func refuseUnlessEmpty(_ consolePlan: CopyPlan, _ logsPlan: CopyPlan) async throws {
        let occupiedConsole = try await consolePlan.tablesWithRows(in: to.console)
        let occupiedLogs = try await logsPlan.tablesWithRows(in: to.logs)
        guard occupiedConsole.isEmpty, occupiedLogs.isEmpty else {
            let schema = target.schema ?? "public"
            let startOver = "To start over, copy into a new database, or empty this one first: DROP SCHEMA \(LogStoreFiles.logSchema(beside: target.schema)) CASCADE; and drop the tables of schema \(schema)."
            if occupiedConsole.isEmpty {
                throw Refusal(description: "The target's log store holds rows (\(occupiedLogs.joined(separator: ", "))) but its console tables none: a copy into it stopped part-way. \(startOver)")
            }
            throw Refusal(description: "The target is not empty (\((occupiedConsole + occupiedLogs).joined(separator: ", ")) hold rows): copy into a new database or schema. \(startOver)")
        }
    }

    /// Every table of `plan`, then the sequences and the counts, on `connection`'s transaction.
    private func copy(_ plan: CopyPlan, from source: Database, into connection: Connection) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        for table in plan.tables {
            rows[table.name] = try copy(table, from: source, into: connection)
        }
        try plan.advanceSequences(from: source, in: connection)
        try verify(plan, from: source, in: connection)
        return rows
    }

    /// Copies one table a chunk at a time in id order (rowid for tables keyed otherwise).
    private func copy(_ table: CopyPlan.Table, from source: Database, into connection: Connection) throws -> Int {
        let total = try source.readBlocking { try $0.scalar(SQL(verbatim: "SELECT count(*) FROM \(table.name)"), as: Int.self) ?? 0 }
        var copied = 0
        var after: Int64 = .min
        let started = Date()
        try table.clearSeeded(in: connection)
        while copied < total {
            // Tables keyed by id go a chunk at a time; the few keyed otherwise (settings, each
            // app's usage) are small and go whole.
            let keyed = table.columns.contains { $0.name == "id" }
            let rows = try source.readBlocking { source in
                try source.rows(keyed
                    ? SQL(verbatim: "SELECT \(table.sourceSelection) FROM \(table.name) WHERE id > ? ORDER BY id LIMIT \(Self.chunkSize)", bindings: [.integer(after)])
                    : SQL(verbatim: "SELECT \(table.sourceSelection) FROM \(table.name)"))
            }
            guard let last = rows.last else { break }
            after = keyed ? try last.get("id", as: Int64.self) : .max
            for start in stride(from: 0, to: rows.count, by: Self.chunkSize) {
                try table.insert(Array(rows[start..<min(start + Self.chunkSize, rows.count)]), into: connection)
            }
            copied += rows.count
            let rate = Double(copied) / max(Date().timeIntervalSince(started), 0.001)
            progress("\(table.name): \(copied.formatted()) of \(total.formatted()) rows (\(Int(rate).formatted()) rows/s)")
        }
        if table.hasSelfReferences { try table.restoreSelfReferences(from: source, into: connection) }
        return copied
    }

    /// Day partitions for every day the source's lines arrived on, so they land in their own.
    private func preparePartitions(for source: Database, in connection: Connection) throws {
        let span = try source.readBlocking { source in
            try source.row("SELECT min(receivedAt) AS first, max(receivedAt) AS last FROM device_logs")
        }
        guard let first = try span?.get("first", as: Date?.self), let last = try span?.get("last", as: Date?.self) else { return }
        var day = LogPartitions.day(containing: first)
        while day <= last {
            try LogPartitions.prepare(around: day, in: connection)
            day = day.addingTimeInterval(Double(LogPartitions.daysAhead + 1) * 86_400)
        }
    }

    /// Each table's count on the target, before anything commits, against the source's.
    private func verify(_ plan: CopyPlan, from source: Database, in connection: Connection) throws {
        for table in plan.tables {
            let count = SQL(verbatim: "SELECT count(*) FROM \(table.name)")
            let expected = try source.readBlocking { try $0.scalar(count, as: Int.self) ?? 0 }
            let found = try connection.scalar(count, as: Int.self) ?? 0
            guard expected == found else {
                throw Refusal(description: "\(table.name) would have \(found) rows on the target, \(expected) in the source: nothing was copied.")
            }
        }
    }
}
