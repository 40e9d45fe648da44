import Foundation
import Storage
import Synchronization
import Testing

@Suite struct CommittedChangesTests {
    @Test(arguments: Backend.available) func aCommittedWriteReportsTheRowsItChangedByTable(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let reports = Mutex<[CommittedChanges]>([])
        database.onCommit(tables: ["gadgets", "owners"]) { changes in reports.withLock { $0.append(changes) } }
        let before = database.commitCount

        let first = try await database.write { try $0.insert(Gadget.sample("one")) }
        let second = try await database.write { try $0.insert(Gadget.sample("two")) }
        try await database.write { connection in
            var changed = first
            changed.count = 9
            try connection.update(changed)
            try connection.delete(Gadget.self, id: second.id)
        }
        _ = try await database.read { try $0.count(Gadget.query()) }

        let seen = reports.withLock { $0 }
        #expect(seen.count == 3)
        // SQLite's update hook names each row; on PostgreSQL, triggers do (PostgresChangeCapture).
        #expect(seen.last?.rowIDs(in: "gadgets") == [first.id.rawValue, second.id.rawValue])
        #expect(seen.last?.changed("owners") == false)
        #expect(database.commitCount == before + 3)
    }

    @Test(arguments: Backend.available) func aWriteThatChangesNothingReportsNothing(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let calls = Atomic<Int>(0)
        database.onCommit(tables: ["gadgets"]) { _ in calls.add(1, ordering: .relaxed) }
        try await database.write { try $0.execute("UPDATE gadgets SET count = 1 WHERE name = 'nobody'") }
        #expect(calls.load(ordering: .relaxed) == 0)
    }

    @Test(arguments: Backend.available) func aBlockingWriteIsReportedToo(on backend: Backend) throws {
        let database = try makeDatabase(on: backend)
        let calls = Atomic<Int>(0)
        database.onCommit(tables: ["gadgets"]) { _ in calls.add(1, ordering: .relaxed) }
        try database.writeBlocking { _ = try $0.insert(Gadget.sample()) }
        #expect(calls.load(ordering: .relaxed) == 1)
    }

    /// A table nobody watches is not collected: its writes reach no observer and leave the
    /// count alone, so they cannot make a cache throw away what it just read.
    @Test(arguments: Backend.available) func writesToUnwatchedTablesAreNotReported(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let calls = Atomic<Int>(0)
        database.onCommit(tables: ["owners"]) { _ in calls.add(1, ordering: .relaxed) }
        let before = database.commitCount
        _ = try await database.write { try $0.insert(Gadget.sample("unwatched")) }
        #expect(calls.load(ordering: .relaxed) == 0)
        #expect(database.commitCount == before)
    }
}
