import Foundation
@testable import Storage
import Testing

/// Long statements give way to threads waiting for their core (`GiveWay`), short ones never
/// pay for it: during a log flood a check-in waited milliseconds behind the log writer, the
/// decoders and a scan of the unindexed tail until they did.
@Suite struct GiveWayTests {
    private static let insert = """
        INSERT INTO gadgets (name, count, weight, supervised, enrolledAt, token, kind, settings, payload, version)
        VALUES (?, 1, 0.5, 1, 1700000000.0, ?, 'tablet', '{}', x'00', 1)
        """

    /// Counts one row at a time: tens of thousands of virtual machine instructions.
    private static let longStatement: SQL = ReadCancellationTests.slowCount(upTo: 100_000)

    /// `body`'s statements on `connection`, and how many times they gave way.
    private static func timesGivenWay(on connection: Connection, _ body: (Connection) throws -> Void) throws -> Int {
        let before = connection.timesGivenWay
        try body(connection)
        return connection.timesGivenWay - before
    }

    @Test func aLongReadGivesWayAndAShortOneDoesNot() async throws {
        let database = try makeDatabase()
        let (long, short) = try await database.read { connection in
            (try Self.timesGivenWay(on: connection) { _ = try $0.scalar(Self.longStatement, as: Int.self) },
             try Self.timesGivenWay(on: connection) { _ = try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) })
        }
        #expect(long >= 20, "a scan of 100,000 rows gave way \(long) times")
        #expect(short == 0)
    }

    @Test func aLongStatementInAWriteGivesWay() async throws {
        let database = try makeDatabase()
        let times = try await database.write { connection in
            try Self.timesGivenWay(on: connection) { _ = try $0.scalar(Self.longStatement, as: Int.self) }
        }
        #expect(times >= 20)
    }

    @Test func aBatchOfInsertsGivesWayEverySixteenRows() async throws {
        let database = try makeDatabase()
        let rows: [[SQLiteValue]] = (0..<64).map { [.text("gadget \($0)"), .text(UUID().uuidString)] }
        let times = try await database.write { connection in
            try Self.timesGivenWay(on: connection) { try $0.execute(Self.insert, forEachOf: rows) }
        }
        // Each insert is too short for the instruction count to reach a yield on its own.
        #expect(times == 4)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 64)
    }

    @Test func aLongReadThatCanBeCancelledStillGivesWayAndStillStops() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try ReadCancellationTests.oneReaderDatabase(in: directory)
        let times = try await database.read { connection in
            try Self.timesGivenWay(on: connection) { _ = try $0.scalar(Self.longStatement, as: Int.self) }
        }
        #expect(times >= 20)
        let (result, _) = await ReadCancellationTests.cancelAfter100ms { clock in
            try await database.read { try ReadCancellationTests.timedSlowCount(on: $0, timedBy: clock) }
        }
        #expect(throws: CancellationError.self) { try result.get() }
    }

    @Test func workOutsideSQLiteGivesWayOnEveryNthStep() {
        var giveWay = GiveWay(every: 32)
        for _ in 0..<100 { giveWay.step() }
        #expect(giveWay.times == 3)
    }
}
