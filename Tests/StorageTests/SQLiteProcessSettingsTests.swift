import CSQLite
import Foundation
import Storage
import Testing

/// Settings SQLite takes once for the whole process, before its first connection.
@Suite struct SQLiteProcessSettingsTests {
    /// SQLite's memory counts cost a process-wide lock around every allocation (8% of the log
    /// writer's time under a flood), and nothing reads them: they stay off, so the count SQLite
    /// reports stays at zero however much it allocates.
    @Test func sqliteKeepsNoMemoryCounts() async throws {
        let database = try Database(path: ":memory:")
        try await database.write { connection in
            try connection.execute(script: "CREATE TABLE notes (body TEXT NOT NULL)")
            try connection.execute("INSERT INTO notes (body) VALUES (?)", forEachOf: (0..<1_000).map { _ in [.text(String(repeating: "x", count: 1_000))] })
        }
        #expect(sqlite3_memory_used() == 0)
    }
}
