import Domain
import Foundation
import Storage

/// Removing log lines — an admin's deletion or retention — in transactions of at most
/// `batchSize` lines, so an upload waits for one small batch at most, never for a purge of a
/// million lines. Each batch takes its lines off their apps' usage in the same transaction.
struct LogRemoval: Sendable {
    /// The log store's file, where lines go.
    let logs: Database
    /// The console's file, where a deletion's audit entry is written.
    let console: Database
    let now: @Sendable () -> Date
    static let batchSize = 2000

    /// Which lines an admin deletes: chosen ones, or every line matching a filter (up to the
    /// newest line when the deletion starts: lines arriving meanwhile stay).
    enum Selection: Sendable {
        case lines([RecordID<DeviceLogRecord>])
        case matching(LogFilter)
    }

    /// Deletes the selection and returns how many lines went. The audit entry is written
    /// after the first batch and its count brought up to date after every later one; the two
    /// files commit apart, so a console stopped between them leaves the entry one batch short.
    func delete(_ selection: Selection, describedAs description: String, by actor: Actor) async throws -> Int {
        let last = try await logs.read { try $0.scalar(LogQueries.newestLineID, as: Int64.self) }.map { RecordID<DeviceLogRecord>($0) }
        guard let last else { return 0 }
        var after: RecordID<DeviceLogRecord>?
        var total = 0
        var entry: AuditEvent?
        while true {
            // The transaction changes nothing outside itself: a full disk can make it run twice
            // (`writeFreeingRoom`), and the first, rolled-back run must leave no trace.
            let lines = try await logs.writeFreeingRoom { connection -> [LogQueries.RemovedLine] in
                let lines: [LogQueries.RemovedLine]
                switch selection {
                case .lines(let ids):
                    lines = try connection.fetch(LogQueries.RemovedLine.self, LogQueries.export(lines: ids, columns: LogQueries.removedLineColumns))
                case .matching(var filter):
                    filter.before = nil
                    lines = try LogReader.searchingBothParts(filter, limit: Self.batchSize, in: connection) { part, limit in
                        try connection.fetch(LogQueries.RemovedLine.self, LogQueries.export(
                            filter, after: after, through: last, limit: limit, part: part, columns: LogQueries.removedLineColumns, dialect: connection.dialect))
                    }
                }
                try Self.remove(lines, in: connection)
                return lines
            }
            guard !lines.isEmpty else { break }
            after = lines.last?.id ?? after
            total += lines.count
            entry = try await record(total, in: entry, describedAs: description, by: actor)
            if case .lines = selection { break }
            if lines.count < Self.batchSize { break }
        }
        logs.reserve?.hold()
        console.reserve?.hold()
        return total
    }

    /// Writes or updates the deletion's audit entry to say `count` lines went.
    private func record(_ count: Int, in entry: AuditEvent?, describedAs description: String, by actor: Actor) async throws -> AuditEvent {
        let summary = "Deleted \(count) line\(count == 1 ? "" : "s")."
        let time = now()
        return try await console.writeFreeingRoom { connection in
            if var existing = entry {
                existing.after = summary
                try connection.update(existing)
                return existing
            }
            return try connection.insert(AuditEvent(.logsDeleted, subject: description, by: actor, after: summary, at: time))
        }
    }

    /// What one retention pass removed from one app.
    struct Purged: Equatable, Sendable {
        var lines = 0
        var bytes = 0
    }

    /// Removes lines received before `cutoff`, oldest first, batch by batch, and notes per app
    /// what went in `log_events`. Lines arrive in id order, so the pass stops at the first
    /// line it keeps.
    func purge(receivedBefore cutoff: Date) async throws -> [String: Purged] {
        var purged = logs.dialect == .postgres ? try await dropWholeDays(before: cutoff) : [:]
        var after: RecordID<DeviceLogRecord>?
        while true {
            // Nothing outside the transaction changes inside it: see `delete`.
            let (expired, reachedKept) = try await logs.writeFreeingRoom { connection -> ([LogQueries.RemovedLine], Bool) in
                let oldest = try connection.fetch(LogQueries.RemovedLine.self, LogQueries.oldestLines(after: after, limit: Self.batchSize))
                let expired = Array(oldest.prefix { $0.receivedAt < cutoff })
                try Self.remove(expired, in: connection)
                return (expired, expired.count < oldest.count || oldest.count < Self.batchSize)
            }
            for line in expired {
                purged[line.app, default: Purged()].lines += 1
                purged[line.app, default: Purged()].bytes += line.byteCount
            }
            after = expired.last?.id ?? after
            if reachedKept || expired.isEmpty { break }
        }
        logs.reserve?.hold()
        guard !purged.isEmpty else { return purged }
        let time = now()
        try await logs.writeFreeingRoom { connection in
            for (app, removed) in purged.sorted(by: { $0.key < $1.key }) {
                _ = try connection.insert(LogEventRecord(
                    app: app, kind: .retention,
                    message: "Retention removed \(removed.lines) line\(removed.lines == 1 ? "" : "s") (\(ByteCountText.megabytes(removed.bytes))) received before \(DisplayTime.iso(cutoff)).",
                    at: time))
            }
        }
        return purged
    }

    /// On PostgreSQL: drops each day partition retention has passed whole, taking its lines off
    /// their apps' usage, and makes the partitions of the days ahead. What is left before the
    /// cutoff (part of a day, the default partition) goes line by line as on SQLite.
    private func dropWholeDays(before cutoff: Date) async throws -> [String: Purged] {
        try await logs.write { connection in
            try LogPartitions.prepare(around: now(), in: connection)
            var purged: [String: Purged] = [:]
            for day in try LogPartitions.wholeDays(before: cutoff, in: connection) {
                for (app, usage) in try LogPartitions.usage(of: day, in: connection) {
                    purged[app, default: Purged()].lines += usage.lines
                    purged[app, default: Purged()].bytes += usage.bytes
                    _ = try connection.execute(LogQueries.subtractUsage(app: app, bytes: usage.bytes, lines: usage.lines))
                }
                try LogPartitions.drop(day, in: connection)
            }
            return purged
        }
    }

    /// Deletes `lines` and takes them off their apps' usage.
    static func remove(_ lines: [LogQueries.RemovedLine], in connection: Connection) throws {
        guard !lines.isEmpty else { return }
        _ = try connection.execute(LogQueries.deleteLines(lines.map(\.id)))
        var removed: [String: (bytes: Int, lines: Int)] = [:]
        for line in lines {
            removed[line.app, default: (0, 0)].bytes += line.byteCount
            removed[line.app, default: (0, 0)].lines += 1
        }
        for (app, usage) in removed {
            _ = try connection.execute(LogQueries.subtractUsage(app: app, bytes: usage.bytes, lines: usage.lines))
        }
    }
}
