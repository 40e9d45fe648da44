import Foundation
import Storage

/// `payload-console copy`: moves a console from its SQLite files to a PostgreSQL database —
/// every table of the console and of its log store, ids kept, sequences moved past them, row
/// counts checked at the end. The target must be empty (a fresh database or schema): copying
/// into a console in use would mix two fleets.
public struct DatabaseCopy: Sendable {
    public struct Refusal: Error, CustomStringConvertible {
        public let description: String
    }

    /// Rows read and written at a time; each chunk is one transaction on the target.
    static let chunkSize = 500

    let from: LogStoreFiles
    let to: LogStoreFiles
    let progress: @Sendable (String) -> Void

    /// Opens both (migrating each to the current schema) and refuses what cannot be copied.
    public static func prepare(from source: String, sourceLogs: String? = nil, to target: String,
                               progress: @escaping @Sendable (String) -> Void) throws -> DatabaseCopy {
        guard case .sqlite = try DatabaseLocation(source) else { throw Refusal(description: "--from must be a console's SQLite file") }
        guard case .postgres = try DatabaseLocation(target) else { throw Refusal(description: "--to must be a postgres:// database URL") }
        guard FileManager.default.fileExists(atPath: source) else { throw Refusal(description: "There is no console file at \(source).") }
        let from = try LogStoreFiles.open(consolePath: source, logsPath: sourceLogs).files
        let to = try LogStoreFiles.open(consolePath: target).files
        return DatabaseCopy(from: from, to: to, progress: progress)
    }

    /// What was copied: rows per table.
    public struct Summary: Sendable {
        public var rows: [String: Int] = [:]
        public var seconds: Double = 0
        public var total: Int { rows.values.reduce(0, +) }
    }

    public func run() async throws -> Summary {
        let started = Date()
        var summary = Summary()
        for (source, target) in [(from.console, to.console), (from.logs, to.logs)] {
            let plan = try await CopyPlan.make(from: source, to: target)
            let occupied = try await plan.tablesWithRows(in: target)
            guard occupied.isEmpty else {
                throw Refusal(description: "The target is not empty (\(occupied.joined(separator: ", ")) hold rows): copy into a new database or schema.")
            }
            if target === to.logs { try await preparePartitions(for: source, in: target) }
            for table in plan.tables {
                summary.rows[table.name] = try await copy(table, from: source, to: target)
            }
            try await plan.advanceSequences(from: source, in: target)
            try await verify(plan, from: source, to: target)
            progress("Gathering the planner's statistics")
            try await plan.analyze(in: target)
        }
        summary.seconds = Date().timeIntervalSince(started)
        return summary
    }

    /// Copies one table a chunk at a time in id order (rowid for tables keyed otherwise).
    private func copy(_ table: CopyPlan.Table, from source: Database, to target: Database) async throws -> Int {
        let total = try await source.read { try $0.scalar(SQL(verbatim: "SELECT count(*) FROM \(table.name)"), as: Int.self) ?? 0 }
        var copied = 0
        var after: Int64 = .min
        let started = Date()
        try await target.write { try table.clearSeeded(in: $0) }
        while copied < total {
            // Tables keyed by id go a chunk at a time; the few keyed otherwise (settings, each
            // app's usage) are small and go whole.
            let keyed = table.columns.contains { $0.name == "id" }
            let rows = try await source.read { connection in
                try connection.rows(keyed
                    ? SQL(verbatim: "SELECT \(table.sourceSelection) FROM \(table.name) WHERE id > ? ORDER BY id LIMIT \(Self.chunkSize)", bindings: [.integer(after)])
                    : SQL(verbatim: "SELECT \(table.sourceSelection) FROM \(table.name)"))
            }
            guard let last = rows.last else { break }
            after = keyed ? try last.get("id", as: Int64.self) : .max
            try await target.write { connection in
                for start in stride(from: 0, to: rows.count, by: Self.chunkSize) {
                    try table.insert(Array(rows[start..<min(start + Self.chunkSize, rows.count)]), into: connection)
                }
            }
            copied += rows.count
            let rate = Double(copied) / max(Date().timeIntervalSince(started), 0.001)
            progress("\(table.name): \(copied.formatted()) of \(total.formatted()) rows (\(Int(rate).formatted()) rows/s)")
        }
        if table.hasSelfReferences { try await target.write { connection in try table.restoreSelfReferences(from: source, into: connection) } }
        return copied
    }

    /// Day partitions for every day the source's lines arrived on, so they land in their own.
    private func preparePartitions(for source: Database, in target: Database) async throws {
        let span = try await source.read { connection in
            try connection.row("SELECT min(receivedAt) AS first, max(receivedAt) AS last FROM device_logs")
        }
        guard let first = try span?.get("first", as: Date?.self), let last = try span?.get("last", as: Date?.self) else { return }
        try await target.write { connection in
            var day = LogPartitions.day(containing: first)
            while day <= last {
                try LogPartitions.prepare(around: day, in: connection)
                day = day.addingTimeInterval(Double(LogPartitions.daysAhead + 1) * 86_400)
            }
        }
    }

    private func verify(_ plan: CopyPlan, from source: Database, to target: Database) async throws {
        for table in plan.tables {
            let count = SQL(verbatim: "SELECT count(*) FROM \(table.name)")
            let expected = try await source.read { try $0.scalar(count, as: Int.self) ?? 0 }
            let found = try await target.read { try $0.scalar(count, as: Int.self) ?? 0 }
            guard expected == found else {
                throw Refusal(description: "\(table.name) has \(found) rows on the target, \(expected) in the source: the copy is incomplete.")
            }
        }
    }
}
