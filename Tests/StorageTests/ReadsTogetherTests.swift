import Foundation
import Storage
import Testing

/// `Connection.rows(together:)`: independent reads sent at once (on PostgreSQL before any answer
/// is waited for) answer exactly as the same reads one by one, and fail as the first failing one
/// would alone.
@Suite struct ReadsTogetherTests {
    @Test(arguments: Backend.available)
    func eachQueryGetsItsOwnRowsInOrder(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { connection in
            for name in ["lobby", "ward", "exam hall"] { _ = try connection.insert(Gadget.sample(name)) }
        }
        let reads: [SQL] = [
            Gadget.query().order(by: "name").sql,
            "SELECT count(*) AS n FROM gadgets",
            Gadget.query().filter("name", .equal, "nowhere").sql,
            "SELECT name FROM gadgets WHERE name LIKE \("%a%") ORDER BY name DESC",
        ]
        let (together, oneByOne) = try await database.read { connection in
            (try connection.rows(together: reads), try reads.map { try connection.rows($0) })
        }
        #expect(together.count == 4)
        #expect(try together[0].map { try $0.decode(Gadget.self).name } == ["exam hall", "lobby", "ward"])
        #expect(try together[1].first?.first(as: Int.self) == 3)
        #expect(together[2].isEmpty)
        #expect(try together[3].map { try $0.first(as: String.self) } == ["ward", "exam hall"])
        #expect(together.map { $0.map(\.values) } == oneByOne.map { $0.map(\.values) })
    }

    @Test(arguments: Backend.available)
    func aFailingReadFailsTheCallAndTheConnectionGoesOn(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { try $0.insert(Gadget.sample("kept")) }
        await #expect(throws: StorageError.self) {
            try await database.read { connection in
                try connection.rows(together: ["SELECT name FROM gadgets", "SELECT * FROM no_such_table", "SELECT count(*) FROM gadgets"])
            }
        }
        // Also inside a write: the failure rolls the transaction back, and nothing of it stays.
        await #expect(throws: StorageError.self) {
            try await database.write { connection in
                _ = try connection.insert(Gadget.sample("rolled back"))
                return try connection.rows(together: ["SELECT name FROM gadgets", "SELECT no_such_column FROM gadgets"])
            }
        }
        let names = try await database.read { try $0.rows(together: ["SELECT name FROM gadgets", "SELECT 1"]) }
        #expect(try names[0].map { try $0.first(as: String.self) } == ["kept"])
    }

    /// The first reads of a transaction, sent together on a connection the server has ended
    /// since (a restart): nothing of the transaction had happened, so it is read again on a new one.
    @Test(.enabled(if: Backend.available.contains(.postgres))) func readsTogetherOpenAConnectionTheServerEndedAgain() async throws {
        let database = try makeDatabase(on: .postgres)
        _ = try await database.write { try $0.insert(Gadget.sample("before")) }
        let writerProcess = try #require(try await database.write { try $0.scalar("SELECT pg_backend_pid()", as: Int.self) })
        let killer = try makeDatabase(on: .postgres)
        _ = try await killer.withWriterOutsideTransaction { try $0.execute("SELECT pg_terminate_backend(\(writerProcess))") }
        let answers = try await database.write { try $0.rows(together: ["SELECT name FROM gadgets", "SELECT pg_backend_pid() AS pid"]) }
        #expect(try answers[0].map { try $0.first(as: String.self) } == ["before"])
        #expect(try answers[1].first?.first(as: Int.self) != writerProcess)
    }

    /// Reads together run prepared like reads alone; when a table they read changes shape the
    /// server refuses the cached plan once, and the next call prepares afresh.
    @Test(.enabled(if: Backend.available.contains(.postgres))) func preparedReadsTogetherRecoverWhenATableChangesShape() async throws {
        let database = try makeDatabase(on: .postgres)
        _ = try await database.write { try $0.insert(Gadget.sample("shaped")) }
        let reads: [SQL] = ["SELECT * FROM gadgets WHERE name = \("shaped")", "SELECT count(*) FROM gadgets WHERE count = \(3)"]
        for _ in 0..<2 { _ = try await database.write { try $0.rows(together: reads) } }
        try await database.write { try $0.execute(script: "ALTER TABLE gadgets ADD COLUMN colour text") }
        _ = try? await database.write { try $0.rows(together: reads) }
        let answers = try await database.write { try $0.rows(together: reads) }
        #expect(answers[0].first?["colour"] == .null)
        #expect(try answers[1].first?.first(as: Int.self) == 1)
    }
}

/// `ReadsTogether`: each read answered by the ticket `add` gave it.
@Suite struct ReadTicketTests {
    @Test(arguments: Backend.available)
    func eachTicketAnswersWithItsOwnReadsRows(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { connection in
            for name in ["lobby", "ward"] { _ = try connection.insert(Gadget.sample(name)) }
        }
        let (names, count, none) = try await database.read { connection in
            var reads = ReadsTogether()
            let count = reads.add("SELECT count(*) FROM gadgets")
            let none = reads.add(Gadget.query().filter("name", .equal, "nowhere").sql)
            let names = reads.add(Gadget.query().order(by: "name").sql)
            let answers = try connection.rows(together: reads)
            return (try answers[names].map { try $0.decode(Gadget.self).name }, try answers[count].first?.first(as: Int.self), try answers[none])
        }
        #expect(names == ["lobby", "ward"])
        #expect(count == 2)
        #expect(none.isEmpty)
    }

    /// A ticket kept from another batch is refused, not answered with whichever rows share its place.
    @Test(arguments: Backend.available)
    func aTicketFromAnotherBatchIsRefused(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        await #expect(throws: StorageError.self) {
            try await database.read { connection in
                var first = ReadsTogether()
                let stranger = first.add("SELECT 1")
                var second = ReadsTogether()
                _ = second.add("SELECT 2")
                return try connection.rows(together: second)[stranger]
            }
        }
    }
}
