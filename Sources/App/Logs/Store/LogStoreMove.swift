import Foundation
import Storage

/// Carries a console file's log tables (console migrations 8–20) into the log store's own file,
/// once, before console migration 21 drops them.
///
/// Both files are written by one connection with the log file attached. SQLite commits each
/// file of such a transaction on its own when they are in WAL mode, so the copy is made so that
/// doing it again is harmless: lines and events keep their ids (`INSERT OR IGNORE`), usage is
/// replaced, and the console's tables go only with migration 21, after the copy committed.
/// The moved lines start unindexed; the indexer reaches them in the background and searches
/// find them meanwhile (`LogQueries.page`).
enum LogStoreMove {
    static func moveIfNeeded(from console: Database, to logs: Database) throws -> Int? {
        guard logs.path != ":memory:", !logs.path.isEmpty else { return nil }
        return try console.withWriterOutsideTransactionBlocking { connection -> Int? in
            let holdsLogs = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'device_logs'", as: Int.self) ?? 0
            guard holdsLogs > 0 else { return nil }
            try connection.execute("ATTACH DATABASE \(logs.path) AS log_store")
            defer { _ = try? connection.execute("DETACH DATABASE log_store") }
            try connection.execute("BEGIN IMMEDIATE")
            do {
                let columns = "id, deviceID, deviceName, app, appVersion, kind, level, message, fields, signature, loggedAt, receivedAt, byteCount"
                let moved = try connection.execute(SQL(stringLiteral:
                    "INSERT OR IGNORE INTO log_store.device_logs (\(columns)) SELECT \(columns) FROM main.device_logs ORDER BY id"))
                try connection.execute("INSERT OR REPLACE INTO log_store.log_usage (app, byteCount, lineCount) SELECT app, byteCount, lineCount FROM main.log_usage")
                try connection.execute("INSERT OR IGNORE INTO log_store.log_events (id, app, kind, message, at) SELECT id, app, kind, message, at FROM main.log_events")
                try connection.execute("COMMIT")
                return moved
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
