@testable import App
import Domain
import Foundation
import Storage
import Testing

/// A console whose file still holds the log tables (before console migration 21) keeps every
/// line, its usage and its events when it starts: they move to the log store's own file, ids
/// kept, and searches find them while the indexer catches up. (SQLite's history alone.)
@Suite(.enabled(if: TestBackend.current == .sqlite)) struct LogStoreMoveTests {
    @Test func anOlderConsolesLinesMoveToTheLogStoresFileOnce() async throws {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("console.sqlite").path
        do {
            let old = try Database(path: path)
            try Migrator(Schema.migrations.filter { $0.version <= 20 }).migrate(old)
            try old.writeBlocking { connection in
                for (id, message) in [(7, "Sync failed: E_TIMEOUT"), (9, "Opened com.example.checkin")] {
                    try connection.execute("""
                        INSERT INTO device_logs (id, deviceID, deviceName, app, kind, level, message, loggedAt, receivedAt, byteCount)
                        VALUES (\(id), NULL, 'Ward iPad', 'com.example.clinicnotes', 'application', 'error', \(message), 0, 0, \(message.utf8.count))
                        """)
                }
                try connection.execute("INSERT INTO device_log_search(device_log_search) VALUES ('rebuild')")
                try connection.execute("INSERT INTO log_usage (app, byteCount, lineCount) VALUES ('com.example.clinicnotes', 48, 2)")
                try connection.execute("INSERT INTO log_events (app, kind, message, at) VALUES ('com.example.clinicnotes', 'retention', 'Retention removed 3 lines', 0)")
            }
        }

        let opened = try LogStoreFiles.open(consolePath: path)
        #expect(opened.files.logs.path == folder.appendingPathComponent("console-logs.sqlite").path)
        #expect(opened.applied.contains { $0.hasPrefix("Moved 2 log lines") })
        #expect(opened.applied.contains("Applied migration 21: the log store moved to its own database file"))
        let left = try opened.files.console.readBlocking { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name IN ('device_logs', 'log_usage', 'log_events')", as: Int.self) }
        #expect(left == 0, "the console's file no longer holds log tables")
        let (ids, usage, events) = try opened.files.logs.readBlocking { connection in
            (try connection.fetch(DeviceLogRecord.query().order(by: "id")).map(\.id.rawValue),
             try connection.fetch(LogUsage.self, LogQueries.usage(of: ["com.example.clinicnotes"])).first?.lineCount,
             try connection.count(LogEventRecord.query()))
        }
        #expect(ids == [7, 9] && usage == 2 && events == 1)
        // Unindexed after the move, found all the same; then indexed.
        let reader = LogReader(logs: opened.files.logs, console: opened.files.console)
        var filter = LogFilter()
        filter.searchText = "timeout"
        filter.search = try LogSearch("timeout")
        #expect(try await reader.rows(filter, limit: 10).rows.map(\.line.id.rawValue) == [7])
        #expect(try await LogIndexer(logs: opened.files.logs).catchUp() == 2)
        #expect(try await reader.rows(filter, limit: 10).rows.map(\.line.id.rawValue) == [7])

        // A second start moves nothing again.
        let reopened = try LogStoreFiles.open(consolePath: path)
        #expect(reopened.applied.isEmpty)
        #expect(try reopened.files.logs.readBlocking { try $0.count(DeviceLogRecord.query()) } == 2)
    }

    @Test func linesOfADeviceRemovedWhileTheConsoleWasDownLoseItsIdAtTheNextStart() async throws {
        let console = try await TestConsole.make(indexesLogs: false)
        let device = try LogViewerTests.seed(console, [LogViewerTests.line("Before the wipe")])
        // Removed from the console's file alone, as a console stopped between the two writes leaves it.
        try await console.services.database.write { _ = try $0.delete(DeviceRecord.self, id: device) }
        try await LogDeviceReconciliation(logs: console.services.logs, console: console.services.database).run()
        let line = try #require(try await console.services.logs.read { try $0.fetchOne(DeviceLogRecord.query()) })
        #expect(line.deviceID == nil && line.deviceName == "Clinic iPad 3")
    }
}
