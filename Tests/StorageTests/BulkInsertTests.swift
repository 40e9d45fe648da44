import Foundation
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
