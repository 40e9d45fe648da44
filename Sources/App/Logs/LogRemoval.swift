import Domain
import Foundation
import Storage

/// Removing log lines — an admin's deletion or retention — in transactions of at most
/// `batchSize` lines, so an upload waits for one small batch at most, never for a purge of a
/// million lines. Each batch takes its lines off their apps' usage in the same transaction.
struct LogRemoval: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    static let batchSize = 2000

    /// Which lines an admin deletes: chosen ones, or every line matching a filter (up to the
    /// newest line when the deletion starts: lines arriving meanwhile stay).
    enum Selection: Sendable {
        case lines([RecordID<DeviceLogRecord>])
        case matching(LogFilter)
    }

    /// Deletes the selection and returns how many lines went. The audit entry is written with
    /// the first batch and its count kept current by every later one, so it always says
    /// exactly what was removed, even if the console stops halfway.
    func delete(_ selection: Selection, describedAs description: String, by actor: Actor) async throws -> Int {
        let last = try await database.read { try $0.scalar(LogQueries.newestLineID, as: Int64.self) }.map { RecordID<DeviceLogRecord>($0) }
        guard let last else { return 0 }
        var after: RecordID<DeviceLogRecord>?
        var total = 0
        var entry: AuditEvent?
        while true {
            let time = now()
            // The transaction changes nothing outside itself: a full disk can make it run twice
            // (`writeFreeingRoom`), and the first, rolled-back run must leave no trace.
            let (removed, lastRemoved, updatedEntry) = try await database.writeFreeingRoom {
                connection -> (Int, RecordID<DeviceLogRecord>?, AuditEvent?) in
                let lines: [LogQueries.RemovedLine]
                switch selection {
                case .lines(let ids):
                    lines = try connection.fetch(LogQueries.RemovedLine.self, LogQueries.export(lines: ids, columns: LogQueries.removedLineColumns))
                case .matching(var filter):
                    filter.before = nil
                    lines = try connection.fetch(LogQueries.RemovedLine.self, LogQueries.export(
                        filter, after: after, through: last, limit: Self.batchSize, columns: LogQueries.removedLineColumns))
                }
                guard !lines.isEmpty else { return (0, nil, entry) }
                try Self.remove(lines, in: connection)
                let count = total + lines.count
                let summary = "Deleted \(count) line\(count == 1 ? "" : "s")."
                if var existing = entry {
                    existing.after = summary
                    try connection.update(existing)
                    return (lines.count, lines.last?.id, existing)
                }
                return (lines.count, lines.last?.id, try connection.insert(AuditEvent(
                    id: nil, occurredAt: time, actorID: actor.userID, actorEmail: actor.email,
                    action: "logs.deleted", subject: description, before: nil, after: summary)))
            }
            (after, entry) = (lastRemoved ?? after, updatedEntry)
            total += removed
            if case .lines = selection { break }
            if removed < Self.batchSize { break }
        }
        database.reserve?.hold()
        return total
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
        var purged: [String: Purged] = [:]
        var after: RecordID<DeviceLogRecord>?
        while true {
            // Nothing outside the transaction changes inside it: see `delete`.
            let (expired, reachedKept) = try await database.writeFreeingRoom { connection -> ([LogQueries.RemovedLine], Bool) in
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
        database.reserve?.hold()
        guard !purged.isEmpty else { return purged }
        let time = now()
        try await database.writeFreeingRoom { connection in
            for (app, removed) in purged.sorted(by: { $0.key < $1.key }) {
                _ = try connection.insert(LogEventRecord(
                    id: nil, app: app, kind: .retention,
                    message: "Retention removed \(removed.lines) line\(removed.lines == 1 ? "" : "s") (\(ByteCountText.megabytes(removed.bytes))) received before \(DisplayTime.iso(cutoff)).",
                    at: time))
            }
        }
        return purged
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
