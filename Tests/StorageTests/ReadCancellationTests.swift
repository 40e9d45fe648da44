import Foundation
import Storage
import Synchronization
import Testing

/// A request whose client went away, or whose task was cancelled, stops its SQLite read instead
/// of letting the statement run to its end on a reader that others are waiting for.
@Suite struct ReadCancellationTests {
    /// Counts to `upTo` one row at a time: seconds of work for 1e8 rows, nothing to read.
    static func slowCount(upTo limit: Int) -> SQL {
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < \(limit)) SELECT count(*) FROM c"
    }

    /// A file with one reader, so the read after the cancelled one runs on the same connection.
    static func oneReaderDatabase(in directory: URL) throws -> Database {
        let path = directory.appendingPathComponent("db.sqlite").path
        try makeDatabase(path: path).writeBlocking { _ = try $0.insert(Gadget.sample()) }
        return try Database(path: path, readerCount: 1)
    }

    /// When a read's closure began and ended, noted on the connection's own thread.
    /// The slow count, with the moments the closure began and ended noted in `times`.
    static func timedSlowCount(on connection: Connection, timedBy times: ClosureTimes) throws -> Int? {
        times.begin()
        defer { times.end() }
        return try connection.scalar(slowCount(upTo: 100_000_000), as: Int.self)
    }

    final class ClosureTimes: Sendable {
        private let times = Mutex<(began: ContinuousClock.Instant?, ended: ContinuousClock.Instant?)>((nil, nil))
        func begin() { times.withLock { $0.began = .now } }
        func end() { times.withLock { $0.ended = .now } }
        var began: Bool { times.withLock { $0.began != nil } }
        var ended: ContinuousClock.Instant? { times.withLock { $0.ended } }
    }

    /// Starts `read` in a task, cancels the task 100 ms after its closure began and returns how
    /// the read ended and how long after the cancellation its closure ended. Both are timed
    /// where they happen: on a loaded machine a task may wait long for a thread of the
    /// cooperative pool, to start and to resume, and that wait is no statement's doing.
    static func cancelAfter100ms<T: Sendable>(_ read: @escaping @Sendable (ClosureTimes) async throws -> T) async -> (Result<T, any Error>, Duration?) {
        let times = ClosureTimes()
        let task = Task { try await read(times) }
        let patience = ContinuousClock.now + .seconds(60)
        while !times.began && ContinuousClock.now < patience { try? await Task.sleep(for: .milliseconds(5)) }
        try? await Task.sleep(for: .milliseconds(100))
        let cancelled = ContinuousClock.now
        task.cancel()
        let result = await task.result
        return (result, times.ended.map { $0 - cancelled })
    }

    @Test func cancellingAReadStopsItsStatementAndLeavesTheConnectionReady() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Self.oneReaderDatabase(in: directory)

        let (result, elapsed) = await Self.cancelAfter100ms { times in
            try await database.read { try Self.timedSlowCount(on: $0, timedBy: times) }
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try #require(elapsed) < .seconds(1), "the read went on for \(elapsed!) after it was cancelled")
        // The one reader is back in service, outside any transaction.
        #expect(try await database.read { try $0.count(Gadget.query()) } == 1)
        #expect(try await database.read { try $0.scalar(Self.slowCount(upTo: 1000), as: Int.self) } == 1000)
    }

    @Test func cancellingASingleStatementReadStopsIt() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Self.oneReaderDatabase(in: directory)

        let (result, elapsed) = await Self.cancelAfter100ms { times in
            try await database.readSingleStatement { try Self.timedSlowCount(on: $0, timedBy: times) }
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try #require(elapsed) < .seconds(1))
        #expect(try await database.readSingleStatement { try $0.count(Gadget.query()) } == 1)
    }

    /// In memory, reads share the writer's connection: the cancelled read stops, and the
    /// writes after it still commit.
    @Test func cancellingAReadInMemoryLeavesTheWriterWorking() async throws {
        let database = try makeDatabase()

        let (result, elapsed) = await Self.cancelAfter100ms { times in
            try await database.read { try Self.timedSlowCount(on: $0, timedBy: times) }
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try #require(elapsed) < .seconds(1))
        try await database.write { _ = try $0.insert(Gadget.sample("after")) }
        #expect(try await database.read { try $0.count(Gadget.query()) } == 1)
    }

    /// The read queued behind the cancelled one on the same connection is not the one stopped.
    @Test func theReadWaitingBehindACancelledOneRunsToItsEnd() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try Self.oneReaderDatabase(in: directory)

        let times = ClosureTimes()
        let slow = Task {
            try await database.read { connection in
                times.begin()
                return try connection.scalar(Self.slowCount(upTo: 100_000_000), as: Int.self)
            }
        }
        while !times.began { try await Task.sleep(for: .milliseconds(5)) }
        let next = Task { try await database.read { try $0.scalar(Self.slowCount(upTo: 200_000), as: Int.self) } }
        try await Task.sleep(for: .milliseconds(50))
        slow.cancel()
        await #expect(throws: CancellationError.self) { try await slow.value }
        #expect(try await next.value == 200_000)
    }

    /// A closure that makes light of its failed statement does not turn a cancelled read into
    /// a partial answer.
    @Test func aReadWhoseClosureSwallowsTheStoppedStatementStillEndsCancelled() async throws {
        let database = try makeDatabase()
        let (result, elapsed) = await Self.cancelAfter100ms { times in
            try await database.read { connection in
                times.begin()
                defer { times.end() }
                return (try? connection.scalar(Self.slowCount(upTo: 100_000_000), as: Int.self)) ?? 0
            }
        }
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(try #require(elapsed) < .seconds(1))
    }

    /// A task cancelled before its read starts does not run it, on either backend.
    @Test(arguments: Backend.available) func aReadAskedForByACancelledTaskDoesNotRun(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let ran = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await database.read { _ in true }
        }
        await #expect(throws: CancellationError.self) { try await ran.value }
    }

    /// Cancellation stops reads only: a write in a cancelled task commits, since what it was
    /// asked to change may already be half done when the cancellation comes.
    @Test func cancellingAWriteLetsItCommit() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try makeDatabase(path: directory.appendingPathComponent("db.sqlite").path)

        let (result, _) = await Self.cancelAfter100ms { times in
            try await database.write { connection in
                times.begin()
                let count = try connection.scalar(Self.slowCount(upTo: 3_000_000), as: Int.self) ?? 0
                _ = try connection.insert(Gadget.sample("counted \(count)"))
            }
        }
        #expect(throws: Never.self) { try result.get() }
        #expect(try await database.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["counted 3000000"])
    }
}
