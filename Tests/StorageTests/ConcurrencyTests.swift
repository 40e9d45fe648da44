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

    @Test(arguments: Backend.available) func preparedStatementsAreReusedAcrossCalls(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        try await database.write { connection in
            for index in 0..<500 {
                _ = try connection.insert(Gadget.sample("g\(index)"))
            }
        }
        // Lookups through one cached statement: each is reset and rebound, never leaking
        // bindings from the previous call, and compiled once.
        let compiled = try await database.read { connection in
            _ = try connection.fetchOne(Gadget.query().filter("name", .equal, "g0"))
            let before = connection.statementsPrepared
            for index in stride(from: 0, to: 500, by: 7) {
                let found = try connection.fetchOne(Gadget.query().filter("name", .equal, "g\(index)"))
                #expect(found?.name == "g\(index)")
            }
            return connection.statementsPrepared - before
        }
        #expect(compiled == 0)
    }

    /// Read B can only finish if it gets a connection of its own while read A, which waits for
    /// it, holds another: with readers handed out in turn B would queue behind A until A gave
    /// up. A waits five minutes, not five seconds: B's four reads each resume on the cooperative
    /// pool, which the other suites on a loaded 2-core machine once kept busy for longer than
    /// fifty (a pass never waits; the queue drains as the run ends).
    @Test func aReadTakesAnIdleReaderInsteadOfQueueingBehindABusyOne() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try makeDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        let bDone = DispatchSemaphore(value: 0)
        try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await database.read { _ in bDone.wait(timeout: .now() + 300) == .success }
            }
            group.addTask {
                try await Task.sleep(for: .milliseconds(50))
                // Three quick reads, so that handing readers out in turn would now give B the
                // one A holds.
                for _ in 0..<3 { _ = try await database.read { try $0.count(Gadget.query()) } }
                return try await database.read { _ in
                    bDone.signal()
                    return true
                }
            }
            for try await finished in group { #expect(finished) }
        }
    }

    @Test(arguments: Backend.available) func aBlockingWriteInsideAnotherTransactionThrowsInsteadOfWaitingForItself(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let nested = try await database.write { _ in
            Result { try database.writeBlocking { _ in 1 } }
        }
        #expect(throws: StorageError.nestedAccess) { try nested.get() }
        let readInsideWrite = try await database.write { _ in
            Result { try database.readBlocking { _ in 1 } }
        }
        #expect(throws: StorageError.nestedAccess) { try readInsideWrite.get() }
    }

    /// Two processes saving the same row from the same version: one save wins, the other is a
    /// version conflict, never a silent overwrite — on SQLite's file lock and on PostgreSQL's
    /// row locks alike.
    @Test(arguments: Backend.available) func twoProcessesSavingOneVersionGetOneConflict(on backend: Backend) async throws {
        let (first, second) = try backend.twoDatabasesOnOneStore()
        for round in 0..<10 {
            let saved = try await first.write { try $0.insert(Gadget.sample("round \(round)")) }
            let outcomes = await withTaskGroup(of: Result<Void, any Error>.self) { group in
                for (index, database) in [first, second].enumerated() {
                    var edited = saved
                    edited.count = 100 + index
                    group.addTask { [edited] in
                        do {
                            _ = try await database.write { try $0.update(checkingVersion: edited) }
                            return .success(())
                        } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: [Result<Void, any Error>]()) { $0.append($1) }
            }
            let conflicts = outcomes.filter { if case .failure(StorageError.versionConflict) = $0 { true } else { false } }
            #expect(outcomes.filter { if case .success = $0 { true } else { false } }.count == 1, "round \(round): one save wins")
            #expect(conflicts.count == 1, "round \(round): the other is told of the conflict: \(outcomes)")
            let stored = try await second.read { try $0.require(Gadget.self, id: saved.id) }
            #expect(stored.version == saved.version + 1)
        }
    }
}
