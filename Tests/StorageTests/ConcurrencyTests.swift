import Foundation
import Storage
import Testing

@Suite struct ConcurrencyTests {
    @Test func eightConcurrentWritersLoseAndDuplicateNothing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try makeDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        let writers = 8
        let rowsPerWriter = 200
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask {
                    for index in 0..<rowsPerWriter {
                        var gadget = Gadget.sample("w\(writer)-\(index)")
                        gadget.count = writer
                        _ = try await database.write { [gadget] in try $0.insert(gadget) }
                    }
                }
                group.addTask {
                    // Readers run alongside and always see a whole number of committed rows.
                    for _ in 0..<50 {
                        let count = try await database.read { try $0.count(Gadget.query()) }
                        #expect(count >= 0 && count <= writers * rowsPerWriter)
                    }
                }
            }
            try await group.waitForAll()
        }
        let names = try await database.read { try $0.fetch(Gadget.query()) }.map(\.name)
        #expect(names.count == writers * rowsPerWriter)
        #expect(Set(names).count == names.count)
        for writer in 0..<writers {
            #expect(try await database.read { try $0.count(Gadget.query().filter("count", .equal, writer)) } == rowsPerWriter)
        }
    }

    @Test func preparedStatementsAreReusedAcrossCalls() async throws {
        let database = try makeDatabase()
        try await database.write { connection in
            for index in 0..<500 {
                _ = try connection.insert(Gadget.sample("g\(index)"))
            }
        }
        // 500 lookups through one cached statement: each is reset and rebound, never leaking
        // bindings from the previous call.
        for index in stride(from: 0, to: 500, by: 7) {
            let found = try await database.read { try $0.fetchOne(Gadget.query().filter("name", .equal, "g\(index)")) }
            #expect(found?.name == "g\(index)")
        }
    }
}
