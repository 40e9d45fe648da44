import Foundation
import Storage
import Testing

@Suite struct QueryTests {
    private func seeded(on backend: Backend) async throws -> Database {
        let database = try makeDatabase(on: backend)
        try await database.write { connection in
            for index in 1...10 {
                var gadget = Gadget.sample(String(format: "device-%02d", index))
                gadget.count = index
                gadget.kind = index.isMultiple(of: 2) ? .phone : .tablet
                gadget.nickname = index == 3 ? "third" : nil
                _ = try connection.insert(gadget)
            }
        }
        return database
    }

    @Test(arguments: Backend.available) func aScalarOfNoRowsOrNullIsNil(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        // max() over an empty table is one row holding NULL, which once threw a conversion error.
        #expect(try await database.read { try $0.scalar("SELECT max(id) FROM gadgets", as: Int64.self) } == nil)
        #expect(try await database.read { try $0.scalar("SELECT id FROM gadgets", as: Int64.self) } == nil)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM gadgets", as: Int.self) } == 0)
    }

    @Test(arguments: Backend.available) func filtersOrderAndLimitCombine(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        let names = try await database.read { connection in
            try connection.fetch(Gadget.query().filter("kind", .equal, "phone").filter("count", .greater, 3).order(by: "count", .descending).limit(2))
        }.map(\.name)
        #expect(names == ["device-10", "device-08"])
    }

    /// A query written for reading in order counts as well: the order is no part of a count.
    @Test(arguments: Backend.available) func anOrderedQueryCountsItsRows(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        #expect(try await database.read { try $0.count(Gadget.query().filter("kind", .equal, "phone").order(by: "count", .descending)) } == 5)
    }

    @Test(arguments: Backend.available) func keysetPaginationWalksEveryRowOnce(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        var seen: [String] = []
        var after = ""
        while true {
            let page = try await database.read { [after] in try $0.fetch(Gadget.query().filter("name", .greater, after).order(by: "name").limit(3)) }
            guard let last = page.last else { break }
            seen += page.map(\.name)
            after = last.name
        }
        #expect(seen == (1...10).map { String(format: "device-%02d", $0) })
    }

    @Test(arguments: Backend.available) func nilFiltersMeanIsNull(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        let withNickname = try await database.read { try $0.count(Gadget.query().filter("nickname", .notEqual, String?.none)) }
        let withoutNickname = try await database.read { try $0.count(Gadget.query().filter("nickname", .equal, String?.none)) }
        #expect(withNickname == 1)
        #expect(withoutNickname == 9)
    }

    @Test(arguments: Backend.available) func inListAndCustomConditionsBindTheirValues(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        let found = try await database.read { connection in
            try connection.fetch(Gadget.query().filter("count", in: [1, 2, 5]).filter("name LIKE \("%0%")").order(by: "count"))
        }
        #expect(found.map(\.count) == [1, 2, 5])
    }

    @Test(arguments: Backend.available) func hostileInputIsBoundNeverExecuted(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        let hostile = "x'; DROP TABLE gadgets; --"
        let found = try await database.read { try $0.fetch(Gadget.query().filter("name", .equal, hostile)) }
        #expect(found.isEmpty)
        #expect(try await database.read { try $0.count(Gadget.query()) } == 10)
    }

    @Test(arguments: Backend.available) func anUnsafeColumnNameFailsInsteadOfReachingSQL(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        await #expect(throws: StorageError.self) {
            _ = try await database.read { try $0.fetch(Gadget.query().filter("name = name OR 1", .equal, "x")) }
        }
    }

    @Test(arguments: Backend.available) func deleteByQueryRemovesOnlyMatchingRows(on backend: Backend) async throws {
        let database = try await seeded(on: backend)
        let removed = try await database.write { try $0.delete(Gadget.query().filter("kind", .equal, "phone")) }
        #expect(removed == 5)
        #expect(try await database.read { try $0.count(Gadget.query()) } == 5)
    }

    /// A failing statement names itself in the error, with `?` where values were bound: the log
    /// says which statement failed without writing a password or a name into it.
    @Test(arguments: Backend.available) func aFailedStatementCarriesItsSQLButNoBoundValue(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        do {
            _ = try await database.read { try $0.rows("SELECT * FROM nowhere WHERE name = \("hunter2-secret")") }
            Issue.record("the statement should have failed")
        } catch let error as StorageError {
            #expect(error.description.contains("SELECT * FROM nowhere WHERE name = ?"), "\(error)")
            #expect(!error.description.contains("hunter2-secret"))
        }
    }
}
