@testable import App
import Foundation
import Storage
import Testing

/// The log table's kind and level rules are comparisons, not IN lists (SQLite builds a table
/// for an IN list each time it checks a row: a quarter of a line's insert), in a new store and
/// in one made before the change, and they still refuse what they refused. (SQLite's alone:
/// PostgreSQL's table keeps its IN lists.)
@Suite(.enabled(if: TestBackend.current == .sqlite)) struct LogTableChecksTests {
    static func logStore() throws -> (Database, String) {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("logs.sqlite").path
        return (try Database(path: path), path)
    }

    static func tableText(_ database: Database) throws -> String {
        try database.readBlocking { try $0.scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'device_logs'", as: String.self) ?? "" }
    }

    static func insert(kind: String, level: String, message: String, on connection: Connection) throws {
        try connection.execute("""
            INSERT INTO device_logs (deviceID, deviceName, app, kind, level, message, loggedAt, receivedAt, byteCount)
            VALUES (NULL, 'Ward iPad', 'com.example.clinicnotes', \(kind), \(level), \(message), 0, 0, \(message.utf8.count))
            """)
    }

    @Test func aNewLogStoreChecksKindAndLevelByComparison() throws {
        let (logs, _) = try Self.logStore()
        try Migrator(LogSchema.migrations).migrate(logs)
        let text = try Self.tableText(logs)
        #expect(!text.contains(" IN ("), "\(text)")
        for rule in LogSchema.rewrittenChecks { #expect(text.contains(rule.comparisons)) }
    }

    @Test func aStoreMadeBeforeKeepsItsLinesAndItsRules() throws {
        let (logs, path) = try Self.logStore()
        try Migrator(LogSchema.migrations.filter { $0.version == 1 }).migrate(logs)
        try logs.writeBlocking { try Self.insert(kind: "crash", level: "error", message: "Sync failed: E_TIMEOUT", on: $0) }
        #expect(try Self.tableText(logs).contains("kind IN ("))

        try Migrator(LogSchema.migrations).migrate(logs)
        #expect(!(try Self.tableText(logs)).contains(" IN ("))
        let (messages, integrity) = try logs.readBlocking { connection in
            (try connection.rows("SELECT message FROM device_logs").map { try $0.first(as: String.self) },
             try connection.rows("PRAGMA integrity_check").map { try $0.first(as: String.self) })
        }
        #expect(messages == ["Sync failed: E_TIMEOUT"])
        #expect(integrity == ["ok"])

        try logs.writeBlocking { connection in
            try Self.insert(kind: "application", level: "debug", message: "Opened", on: connection)
            for (kind, level) in [("panic", "error"), ("crash", "fatal"), ("Crash", "error"), ("application", "")] {
                #expect(throws: StorageError.self, "\(kind) \(level)") { try Self.insert(kind: kind, level: level, message: "x", on: connection) }
            }
        }
        // Opened afresh, the file reads as the migration left it.
        let reopened = try Database(path: path)
        #expect(try reopened.readBlocking { try $0.scalar("SELECT count(*) FROM device_logs", as: Int.self) } == 2)
    }
}
