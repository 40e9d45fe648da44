import Foundation
import Storage
import Testing

/// What only the PostgreSQL backend has to get right: its own column types under the ORM's
/// values, SQL written for SQLite read as PostgreSQL reads it, and a server that goes away.
@Suite(.enabled(if: Backend.available.contains(.postgres))) struct PostgresBackendTests {
    @Test func columnsUsePostgresOwnTypes() async throws {
        let database = try makeDatabase(on: .postgres)
        _ = try await database.write { try $0.insert(Gadget.sample()) }
        let row = try #require(try await database.read { try $0.row("""
            SELECT pg_typeof(id)::text AS i, pg_typeof(enrolledAt)::text AS e, pg_typeof(settings)::text AS j,
                   pg_typeof(payload)::text AS p, settings->>'volume' AS volume, enrolledAt
            FROM gadgets
            """) })
        #expect(row["i"] == .text("bigint"))
        #expect(row["e"] == .text("timestamp with time zone"))
        #expect(row["j"] == .text("jsonb"))
        #expect(row["p"] == .text("bytea"))
        #expect(row["volume"] == .text("7"))
        // A moment comes back as the same seconds SQLite would hold, to the microsecond.
        #expect(row["enrolledAt"] == .real(1_700_000_000.25))
    }

    @Test func questionMarksInLiteralsAndCommentsAreNotPlaceholders() async throws {
        let database = try makeDatabase(on: .postgres)
        let row = try #require(try await database.read { try $0.row("""
            SELECT 'why?' AS literal, \("bound") AS value, $$a ? b$$ AS dollar -- or this?
            """) })
        #expect(row["literal"] == .text("why?"))
        #expect(row["value"] == .text("bound"))
        #expect(row["dollar"] == .text("a ? b"))
    }

    @Test func aLostConnectionIsOpenedAgainByTheNextStatement() async throws {
        let database = try makeDatabase(on: .postgres)
        _ = try await database.write { try $0.insert(Gadget.sample("before")) }
        // The server ends the writer's session, as a restart would (only this test's own: the
        // other tests share the server).
        let writerProcess = try #require(try await database.write { try $0.scalar("SELECT pg_backend_pid()", as: Int.self) })
        let killer = try makeDatabase(on: .postgres)
        _ = try await killer.withWriterOutsideTransaction { try $0.execute("SELECT pg_terminate_backend(\(writerProcess))") }
        let saved = try await database.write { try $0.insert(Gadget.sample("after")) }
        #expect(saved.id.isSaved)
        #expect(try await database.read { try $0.fetch(Gadget.query().filter("name", .equal, "after")) }.count == 1)
    }

    @Test func aSelectIsPreparedOnceAndReadsEachValueAsItsTextWouldBeRead() async throws {
        let database = try makeDatabase(on: .postgres)
        let gadget = Gadget.sample("prepared")
        _ = try await database.write { try $0.insert(gadget) }
        let names = try await database.write { connection in
            try (0..<3).map { _ in
                try connection.scalar("""
                    SELECT name FROM gadgets WHERE name = \(gadget.name) AND count = \(gadget.count) AND weight = \(gadget.weight)
                    AND supervised = \(gadget.supervised) AND enrolledAt = \(gadget.enrolledAt) AND payload = \(gadget.payload)
                    AND retiredAt IS NOT DISTINCT FROM \(gadget.retiredAt.sqliteValue) LIMIT \(5)
                    """, as: String.self)
            }
        }
        #expect(names == ["prepared", "prepared", "prepared"])
        let prepared = try await database.write {
            try $0.scalar("SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE 'SELECT name FROM gadgets%'", as: Int.self)
        }
        #expect(prepared == 1)
        // Text where a number is wanted goes as text, read by the server as before — or refused.
        let byText = try await database.read { try $0.scalar("SELECT name FROM gadgets WHERE count = \("3")", as: String.self) }
        #expect(byText == "prepared")
        await #expect(throws: StorageError.self) {
            try await database.read { try $0.scalar("SELECT name FROM gadgets WHERE count = \("three")", as: String.self) }
        }
    }

    /// `Date.distantPast` and moments past 9999 are -infinity and infinity to PostgreSQL, as
    /// their text form says: bound in binary as such, the statement runs prepared like any other.
    @Test func momentsBeyondTheCalendarBindAsInfinityInAPreparedSelect() async throws {
        let database = try makeDatabase(on: .postgres)
        _ = try await database.write { try $0.insert(Gadget.sample("dated")) }
        let farFuture = Date(timeIntervalSince1970: 300_000_000_000)
        let (names, executions) = try await database.write { connection in
            let names = try (0..<3).map { _ in
                try connection.scalar("SELECT name FROM gadgets WHERE enrolledAt > \(Date.distantPast) AND enrolledAt < \(farFuture)", as: String.self)
            }
            let executions = try connection.scalar("""
                SELECT CAST(sum(generic_plans + custom_plans) AS bigint) FROM pg_prepared_statements
                WHERE statement LIKE 'SELECT name FROM gadgets WHERE enrolledAt >%'
                """, as: Int.self)
            return (names, executions)
        }
        #expect(names == ["dated", "dated", "dated"])
        #expect(executions == 3)
        let none = try await database.read {
            try $0.scalar("SELECT count(*) FROM gadgets WHERE enrolledAt < \(Date.distantPast) OR enrolledAt > \(farFuture)", as: Int.self)
        }
        #expect(none == 0)
    }

    @Test func writersOfAPoolWriteSideBySide() async throws {
        let first = try makeDatabase(on: .postgres)
        guard case .postgres(var server) = try DatabaseLocation(Backend.testServer ?? "") else { return }
        server.schema = try await first.read { try $0.scalar("SELECT current_schema()", as: String.self) }
        server.poolSize = 3
        let pooled = try Database(postgres: server, writers: 2)
        // A write holds one writer until another write has committed: with one writer the
        // second would wait behind the first, which gives up after five minutes. A pass never
        // waits that long, but the other side needs the cooperative pool, which the suites
        // running in parallel on a loaded 2-core machine kept busy for fifty seconds.
        let started = DispatchSemaphore(value: 0)
        let otherCommitted = DispatchSemaphore(value: 0)
        async let holderSawTheOther: Bool = pooled.write { connection in
            _ = try connection.insert(Gadget.sample("holder"))
            started.signal()
            return otherCommitted.wait(timeout: .now() + 300) == .success
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { started.wait(); continuation.resume() }
        }
        try await pooled.write { _ = try $0.insert(Gadget.sample("passing")) }
        otherCommitted.signal()
        #expect(try await holderSawTheOther)
        #expect(try await pooled.read { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 2)
    }
}
