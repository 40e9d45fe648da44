import Foundation
import NIOCore
@testable import Storage
import Testing

/// `execute(_:forEachOf:)`, the bulk insert log uploads use (a COPY on PostgreSQL): every
/// value comes back as it went in, and a batch with one bad row stores none of it.
@Suite struct BulkInsertTests {
    private static let insert = """
        INSERT INTO gadgets (name, count, weight, supervised, enrolledAt, retiredAt, nickname, token, kind, settings, payload, version)
        VALUES (?, ?, ?, ?, ?, ?, CAST(? AS text), ?, ?, ?, ?, ?)
        """

    private static func row(_ name: String, kind: String = "tablet", nickname: String? = nil, payload: [UInt8] = [0, 1, 2, 255]) -> [SQLiteValue] {
        [.text(name), .integer(3), .real(0.1 + 0.2), .integer(1), .date(Date(timeIntervalSince1970: 1_700_000_000.25)), .null,
         nickname.map(SQLiteValue.text) ?? .null, .text(UUID().uuidString), .text(kind), .text(#"{"volume":7,"tags":["a\\b"]}"#),
         .blob(payload), .integer(1)]
    }

    @Test(arguments: Backend.available) func everyValueComesBackAsItWentIn(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let awkward = "tab\there, line\nbreak, return\r, back\\slash, \\N, quote' \"double\", ünïcödé ✓"
        let rows = (0..<1_200).map { Self.row("gadget \($0)") } + [Self.row("awkward", nickname: awkward, payload: [])]
        try await database.write { try $0.execute(Self.insert, forEachOf: rows) }
        let stored = try await database.read { try $0.fetch(Gadget.query().order(by: "id")) }
        #expect(stored.count == 1_201)
        let last = try #require(stored.last)
        #expect(last.nickname == awkward)
        #expect(last.payload == Data())
        #expect(last.weight == 0.1 + 0.2)
        #expect(last.enrolledAt == Date(timeIntervalSince1970: 1_700_000_000.25))
        #expect(last.retiredAt == nil)
        #expect(last.settings.tags == ["a\\b"])
        #expect(stored.first?.payload == Data([0, 1, 2, 255]))
    }

    @Test(arguments: Backend.available) func oneBadRowStoresNoneOfTheBatch(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let rows = (0..<600).map { Self.row("gadget \($0)", kind: $0 == 599 ? "toaster" : "tablet") }
        await #expect(throws: StorageError.self) {
            try await database.write { try $0.execute(Self.insert, forEachOf: rows) }
        }
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 0)
        // The connection is fine afterwards.
        try await database.write { try $0.execute(Self.insert, forEachOf: [Self.row("after")]) }
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 1)
    }

    /// Every cooperative thread blocked (as tests or handlers waiting on the database from an
    /// async function block them): a COPY waited for by a worker thread still finishes. Its
    /// task used to need one of those threads, and two tests seeding logs side by side hung.
    @Test(.enabled(if: Backend.available.contains(.postgres)))
    func aCopyFinishesWhileEverySwiftConcurrencyThreadIsBlocked() throws {
        let database = try makeDatabase(on: .postgres)
        let release = DispatchSemaphore(value: 0)
        let blockers = ProcessInfo.processInfo.activeProcessorCount
        for _ in 0..<blockers { Task.detached { release.wait() } }
        usleep(200_000)  // this test's own thread is blocked too, as the others start
        let finished = DispatchSemaphore(value: 0)
        let copied = Thread {
            _ = try? database.writeBlocking { try $0.execute(Self.insert, forEachOf: [Self.row("while blocked")]) }
            finished.signal()
        }
        copied.start()
        let done = finished.wait(timeout: .now() + 10) == .success
        for _ in 0..<blockers { release.signal() }
        #expect(done)
        if !done { finished.wait() }
        #expect(try database.readBlocking { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 1)
    }
}

/// The timestamp text every date goes to PostgreSQL as, in parameters and COPY rows alike.
@Suite struct PostgresTimestampTextTests {
    @Test func momentsAreWrittenInUTCToTheMicrosecond() {
        let cases: [(Double, String)] = [
            (0, "1970-01-01 00:00:00.000000+00"),
            (1_700_000_000.25, "2023-11-14 22:13:20.250000+00"),
            (951_782_400, "2000-02-29 00:00:00.000000+00"),  // a leap day of a 400-year century
            (4_107_542_399.999999, "2100-02-28 23:59:59.999999+00"),  // 2100 has no 29 February
            (-0.5, "1969-12-31 23:59:59.500000+00"),  // before 1970 the remainders turn round
            (-2_208_988_800, "1900-01-01 00:00:00.000000+00"),
            (253_402_300_799, "9999-12-31 23:59:59.000000+00"),
            (-2_208_988_801, "1899-12-31 23:59:59.000000+00"),  // kept, not clamped: devices send such times
            (-62_135_596_800, "0001-01-01 00:00:00.000000+00"),
            (253_402_300_799.5, "9999-12-31 23:59:59.500000+00"),
            // Beyond four-digit years only the console's own sentinels go (`Date.distantPast`).
            (-62_135_596_800.001, "-infinity"), (253_402_300_800, "infinity"),
            (-.infinity, "-infinity"), (.nan, "-infinity"),
        ]
        for (seconds, text) in cases {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(PostgresValues.timestampText(date) == text)
            var buffer = ByteBuffer(string: "x")
            PostgresValues.appendTimestamp(date, to: &buffer)
            #expect(String(buffer: buffer) == "x" + text)
        }
    }

    /// Days from 1900 to 9999 (every 29th, so every month and weekday comes round) against the C library's calendar.
    @Test func everyDayAgreesWithTheCLibrary() {
        for day in stride(from: -25_567, through: 2_932_896, by: 29) {
            var seconds = day * 86_400 + 45_296
            var parts = tm()
            gmtime_r(&seconds, &parts)
            let expected = String(format: "%04d-%02d-%02d 12:34:56.000000+00", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday)
            #expect(PostgresValues.timestampText(Date(timeIntervalSince1970: Double(seconds))) == expected)
            if PostgresValues.timestampText(Date(timeIntervalSince1970: Double(seconds))) != expected { break }
        }
    }
}

@Suite struct CopyInsertTests {
    @Test func anInsertOfParametersBecomesACopyOfItsColumns() throws {
        let copy = try #require(CopyInsert("INSERT INTO device_logs (deviceID, message, search)\n VALUES (?, ?, CAST(? AS tsvector))"))
        #expect(copy.table == "device_logs")
        #expect(copy.columns == ["deviceid", "message", "search"])
    }

    @Test func insertsWithExpressionsOrClausesAreNotCopies() {
        #expect(CopyInsert("INSERT INTO t (a, b) VALUES (?, lower(?))") == nil)
        #expect(CopyInsert("INSERT INTO t (a) VALUES (?) ON CONFLICT (a) DO NOTHING") == nil)
        #expect(CopyInsert("INSERT INTO t (a) VALUES (?) RETURNING id") == nil)
        #expect(CopyInsert("INSERT INTO t (a, b) VALUES (?)") == nil)
        #expect(CopyInsert("INSERT INTO t (a) SELECT a FROM u") == nil)
        #expect(CopyInsert("INSERT INTO \"t\" (a) VALUES (?)") == nil)
    }
}
