import Foundation
@testable import Storage
import Testing

/// A file that takes bulk writes from machines (the log store) writes at a lower priority and
/// leaves checkpoints to a thread beside its writer; and a bulk insert binds row after row to
/// one statement.
@Suite struct BackgroundWriterTests {
    private func notes(in database: Database) throws {
        try database.withWriterOutsideTransactionBlocking { try $0.execute(script: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)") }
    }

    @Test func aBackgroundFilesLogIsCopiedBackBesideItsWriterAndStaysBounded() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("logs.sqlite").path
        let database = try Database(path: path, background: true)
        try notes(in: database)
        // 200 writes of 200 KB without a pause: 40 MB through a log the checkpointer copies back
        // from 1,000 pages (4 MB) on and the writer finishes copying at 4,000 (16 MB), since
        // writes that never pause keep a copy beside them from ever reaching the end. SQLite
        // runs one checkpoint at a time, so the writer's copy can find the checkpointer's
        // under way; past 8,000 pages it waits for it, and the log never holds more than those
        // and one write (50 pages of rows and their tree's). It reached 44 MB of the 40 MB
        // written before the writer waited, beside two busy loops and a disk filler.
        let body = String(repeating: "x", count: 2_000)
        var largestLog = 0
        for _ in 0..<200 {
            try await database.write { connection in
                try connection.execute("INSERT INTO notes (body) VALUES (?)", forEachOf: (0..<100).map { _ in [.text(body)] })
            }
            let size = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            largestLog = max(largestLog, size ?? 0)
        }
        let frameBytes = 24 + 4_096
        #expect(largestLog <= (Int(Checkpointer.writerWaitsAt) + 100) * frameBytes, "the write-ahead log grew to \(largestLog) bytes")
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM notes", as: Int.self) } == 20_000)
        #expect(try await database.read { try $0.scalar("PRAGMA integrity_check", as: String.self) } == "ok")
    }

    @Test func aBackgroundFilesWriterRunsAtALowerPriorityThanReaders() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let background = try Database(path: directory.appendingPathComponent("logs.sqlite").path, background: true)
        let ordinary = try Database(path: directory.appendingPathComponent("console.sqlite").path)
        // SCHED_IDLE is 5 and SCHED_OTHER 0 in <bits/sched.h>.
        let policy = { @Sendable in sched_getscheduler(0) }
        #expect(try await background.write { _ in policy() } == 5)
        #expect(try await background.read { _ in policy() } == 0)
        #expect(try await ordinary.write { _ in policy() } == 0)
    }

    /// `top -H`, `perf` and `/proc` name each thread, so an operator can tell the log writer's
    /// work from the console's writer's and the readers'.
    @Test func eachFilesThreadsAreNamedInTheKernel() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let background = try Database(path: directory.appendingPathComponent("logs.sqlite").path, background: true)
        let ordinary = try Database(path: directory.appendingPathComponent("console.sqlite").path)
        let name = { @Sendable in try String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8).trimmingCharacters(in: .newlines) }
        #expect(try await background.write { _ in try name() } == "sqlite-bgwriter")
        #expect(try await ordinary.write { _ in try name() } == "sqlite-writer")
        #expect(try await ordinary.read { _ in try name() }.hasPrefix("sqlite-reader-"))
    }

    @Test func aBackgroundFilesWriterKeepsALargerPageCacheThanAnOrdinaryFile() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let background = try Database(path: directory.appendingPathComponent("logs.sqlite").path, background: true)
        let ordinary = try Database(path: directory.appendingPathComponent("console.sqlite").path)
        // A negative cache_size is KiB: 64 MB for the flood's writer, SQLite's 2 MB elsewhere.
        #expect(try await background.write { try $0.scalar("PRAGMA cache_size", as: Int.self) } == -65_536)
        #expect(try await ordinary.write { try $0.scalar("PRAGMA cache_size", as: Int.self) } == -2_000)
    }

    @Test func aBulkInsertBindsEveryRowAndARowThatDoesNotFitUndoesTheWrite() async throws {
        let database = try Database(path: ":memory:")
        try notes(in: database)
        try await database.write { try $0.execute("INSERT INTO notes (body) VALUES (?)", forEachOf: [[.text("one")], [.text("two")], [.text("three")]]) }
        #expect(try await database.read { try $0.rows("SELECT body FROM notes ORDER BY id") }.map { try $0.first(as: String.self) } == ["one", "two", "three"])

        await #expect(throws: StorageError.self) {
            try await database.write { try $0.execute("INSERT INTO notes (body) VALUES (?)", forEachOf: [[.text("four")], [.text("five"), .text("extra")]]) }
        }
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM notes", as: Int.self) } == 3)
    }
}
