import Foundation
import Storage
import Testing

@Suite struct RecordRoundTripTests {
    @Test(arguments: Backend.available) func everyColumnKindSurvivesAnInsertAndFind(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        var gadget = Gadget.sample()
        gadget.nickname = "Front desk"
        gadget.retiredAt = Date(timeIntervalSince1970: 1_800_000_000.5)
        let saved = try await database.write { try $0.insert(gadget) }
        let id = saved.id
        let found = try await database.read { try $0.find(Gadget.self, id: id) }
        var expected = gadget
        expected.id = id
        #expect(found == expected)
    }

    @Test(arguments: Backend.available) func nilOptionalsAreStoredAsNullAndReadBackAsNil(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let saved = try await database.write { try $0.insert(Gadget.sample()) }
        let row = try await database.read { try $0.row("SELECT nickname, retiredAt FROM gadgets") }
        #expect(row?["nickname"] == .null)
        #expect(row?["retiredAt"] == .null)
        let found = try await database.read { try $0.require(Gadget.self, id: saved.id) }
        #expect(found.nickname == nil && found.retiredAt == nil)
    }

    @Test(arguments: Backend.available) func updateClearsAnOptionalThatBecameNil(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        var gadget = Gadget.sample()
        gadget.nickname = "Lobby"
        var saved = try await database.write { try $0.insert(gadget) }
        saved.nickname = nil
        saved.count = 9
        try await database.write { [saved] in try $0.update(saved) }
        let found = try await database.read { try $0.require(Gadget.self, id: saved.id) }
        #expect(found.nickname == nil)
        #expect(found.count == 9)
    }

    @Test func columnsUseTheirNaturalSQLiteTypes() async throws {
        let database = try makeDatabase()
        _ = try await database.write { try $0.insert(Gadget.sample()) }
        let row = try #require(try await database.read { try $0.row("SELECT typeof(count) AS c, typeof(weight) AS w, typeof(supervised) AS s, typeof(enrolledAt) AS e, typeof(token) AS t, typeof(kind) AS k, typeof(settings) AS j, typeof(payload) AS p, kind, settings FROM gadgets") })
        #expect(row["c"] == .text("integer"))
        #expect(row["w"] == .text("real"))
        #expect(row["s"] == .text("integer"))
        #expect(row["e"] == .text("real"))
        #expect(row["t"] == .text("text"))
        #expect(row["k"] == .text("text"))
        #expect(row["kind"] == .text("tablet"))
        #expect(row["j"] == .text("text"))
        #expect(row["settings"] == .text(#"{"tags":["lobby","kiosk"],"volume":7}"#))
        #expect(row["p"] == .text("blob"))
    }

    @Test(arguments: Backend.available) func aValueOfTheWrongTypeIsAConversionErrorNotACrash(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { try $0.insert(Gadget.sample()) }
        guard backend == .sqlite else {
            // PostgreSQL refuses to store it at all, with the typed error.
            await #expect(throws: StorageError.self) { try await database.write { try $0.execute("UPDATE gadgets SET count = 'many'") } }
            return
        }
        try await database.write { try $0.execute("UPDATE gadgets SET kind = 'tablet', count = 'many'") }
        await #expect(throws: StorageError.self) {
            _ = try await database.read { try $0.fetch(Gadget.query()) }
        }
    }

    @Test(arguments: Backend.available) func deleteRemovesTheRowAndReportsAMissingOne(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let saved = try await database.write { try $0.insert(Gadget.sample()) }
        let id = saved.id
        try await database.write { try $0.delete(Gadget.self, id: id) }
        #expect(try await database.read { try $0.find(Gadget.self, id: id) } == nil)
        await #expect(throws: StorageError.notFound(table: "gadgets")) {
            try await database.write { try $0.delete(Gadget.self, id: id) }
        }
    }

    @Test(arguments: Backend.available) func arbitraryRowsDecodeIntoAnyDecodableStruct(on backend: Backend) async throws {
        struct Summary: Decodable, Sendable { var kind: Gadget.Kind; var total: Int }
        let database = try makeDatabase(on: backend)
        try await database.write { connection in
            for name in ["a", "b", "c"] { _ = try connection.insert(Gadget.sample(name)) }
        }
        let summaries = try await database.read { try $0.fetch(Summary.self, "SELECT kind, count(*) AS total FROM gadgets GROUP BY kind") }
        #expect(summaries.count == 1)
        #expect(summaries.first?.kind == .tablet)
        #expect(summaries.first?.total == 3)
    }
}
