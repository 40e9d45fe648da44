import Foundation
import Storage
import Synchronization
import Testing

/// A table read whole and kept in memory is never older than the last committed change to it:
/// dropped when a write to the table commits, and not kept when read while one committed.
@Suite struct TableCacheTests {
    static func names(_ connection: Connection) throws -> [String] {
        try connection.fetch(Gadget.query().order(by: "name")).map(\.name)
    }

    @Test(arguments: Backend.available) func aValueIsKeptUntilAWriteToItsTableCommits(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let cache = TableCache(database, tables: ["gadgets"], load: Self.names)
        _ = try await database.write { try $0.insert(Gadget.sample("one")) }
        #expect(try await database.read { try cache.value(in: $0) } == ["one"])
        #expect(cache.isHeld)
        // Held: the next read asks nothing of the database.
        let tally = StatementTally()
        #expect(try await tally.counting { try await database.read { try cache.value(in: $0) } } == ["one"])
        #expect(tally.statements == 0)

        _ = try await database.write { try $0.insert(Gadget.sample("two")) }
        #expect(!cache.isHeld)
        #expect(try await database.read { try cache.value(in: $0) } == ["one", "two"])
        // Writes to other tables leave it alone.
        _ = try await database.write { try $0.insert(Owner(name: "Ann")) }
        #expect(cache.isHeld)
    }

    /// What a write reads may be its own change, which may yet roll back: used, never kept.
    @Test(arguments: Backend.available) func whatAWriteReadsIsNotKept(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let cache = TableCache(database, tables: ["gadgets"], load: Self.names)
        await #expect(throws: Refusal.self) {
            try await database.write { connection in
                _ = try connection.insert(Gadget.sample("rolled back"))
                #expect(try cache.value(in: connection) == ["rolled back"])
                throw Refusal()
            }
        }
        #expect(!cache.isHeld)
        #expect(try await database.read { try cache.value(in: $0) } == [])
    }

    /// A read that began before a change committed may have read the older rows: it answers
    /// them, but does not keep them for the next reader.
    @Test(arguments: Backend.available) func aValueReadWhileAChangeCommittedIsNotKept(on backend: Backend) async throws {
        // A file, so the read has a reader of its own beside the writer.
        let database = backend == .sqlite ? try makeDatabase(path: try temporaryDirectory().appendingPathComponent("cache.sqlite").path)
                                          : try makeDatabase(on: backend)
        let loading = Atomic<Bool>(false), proceed = Atomic<Bool>(false)
        let cache = TableCache(database, tables: ["gadgets"]) { connection in
            let names = try Self.names(connection)
            loading.store(true, ordering: .sequentiallyConsistent)
            while !proceed.load(ordering: .sequentiallyConsistent) { usleep(1_000) }
            return names
        }
        async let read = database.read { try cache.value(in: $0) }
        while !loading.load(ordering: .sequentiallyConsistent) { try await Task.sleep(for: .milliseconds(5)) }
        _ = try await database.write { try $0.insert(Gadget.sample("during")) }
        proceed.store(true, ordering: .sequentiallyConsistent)
        #expect(try await read == [])
        #expect(!cache.isHeld)
        #expect(try await database.read { try cache.value(in: $0) } == ["during"])
        #expect(cache.isHeld)
    }

    /// On SQLite a table WITHOUT ROWID is silent to the update hook: triggers report it.
    @Test(arguments: Backend.available) func aChangeToATableWithoutRowIDsIsReportedAsTheWholeTable(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        try await database.withWriterOutsideTransaction { connection in
            try connection.execute(script: connection.dialect == .sqlite
                ? "CREATE TABLE labels (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID"
                : "CREATE TABLE labels (key text PRIMARY KEY, value text NOT NULL)")
        }
        let reports = Mutex<[CommittedChanges]>([])
        database.onCommit(tables: ["labels"]) { changes in reports.withLock { $0.append(changes) } }
        try await database.write { try $0.execute("INSERT INTO labels (key, value) VALUES ('colour', 'teal')") }
        try await database.write { try $0.execute("UPDATE labels SET value = 'plum' WHERE key = 'colour'") }
        try await database.write { try $0.execute("DELETE FROM labels") }
        let seen = reports.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.allSatisfy { $0.changed("labels") && $0.rowIDs(in: "labels") == nil })

        let cache = TableCache(database, tables: ["labels"]) { try $0.rows("SELECT value FROM labels").map { try $0.first(as: String.self) } }
        #expect(try await database.read { try cache.value(in: $0) } == [])
        try await database.write { try $0.execute("INSERT INTO labels (key, value) VALUES ('size', 'large')") }
        #expect(try await database.read { try cache.value(in: $0) } == ["large"])
    }

    /// Two consoles on one PostgreSQL database: what one writes empties the other's cache.
    @Test func anotherConsolesWriteEmptiesTheCache() async throws {
        guard Backend.available.contains(.postgres) else { return }
        let (first, second) = try Backend.postgres.twoDatabasesOnOneStore()
        first.onCommit(tables: ["gadgets"]) { _ in }
        let cache = TableCache(second, tables: ["gadgets"], load: Self.names)
        #expect(try await second.read { try cache.value(in: $0) } == [])
        _ = try await first.write { try $0.insert(Gadget.sample("elsewhere")) }
        for _ in 0..<200 where cache.isHeld { try await Task.sleep(for: .milliseconds(10)) }
        #expect(!cache.isHeld)
        #expect(try await second.read { try cache.value(in: $0) } == ["elsewhere"])
    }
}

private struct Refusal: Error {}

/// A statement counter for one task's work: what a page's test holds it to.
@Suite struct StatementTallyTests {
    @Test(arguments: Backend.available) func countsTheStatementsOfTheCallingTaskOnly(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let tally = StatementTally()
        let busy = Task {
            // Another task's reads meanwhile count nowhere.
            for _ in 0..<20 { _ = try await database.read { try $0.count(Gadget.query()) } }
        }
        try await tally.counting {
            _ = try await database.write { try $0.insert(Gadget.sample("counted")) }
            _ = try await database.read { connection in
                (try connection.count(Gadget.query()), try connection.fetch(Owner.query()))
            }
            _ = try await database.readSingleStatement { try $0.count(Owner.query()) }
        }
        try await busy.value
        _ = try await database.read { try $0.count(Gadget.query()) }
        // The insert, two reads and one more: BEGIN and COMMIT are not counted.
        #expect(tally.statements == 4)
        #expect(tally.transactions == 3)
    }
}
