import Foundation
import Storage
import Testing

@Suite struct ConstraintAndTransactionTests {
    @Test(arguments: Backend.available) func aDuplicateUniqueValueNamesTheConstraint(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { try $0.insert(Gadget.sample("same")) }
        await #expect(throws: StorageError.uniqueViolation(constraint: "gadgets.name")) {
            _ = try await database.write { try $0.insert(Gadget.sample("same")) }
        }
    }

    @Test(arguments: Backend.available) func aMissingParentIsAForeignKeyViolation(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        await #expect(throws: StorageError.foreignKeyViolation(constraint: "foreign key")) {
            _ = try await database.write { try $0.insert(Loan(ownerID: RecordID(42), gadgetName: "x")) }
        }
    }

    @Test(arguments: Backend.available) func deletingAReferencedParentIsRefused(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let owner = try await database.write { connection in
            let owner = try connection.insert(Owner(name: "Clinic"))
            _ = try connection.insert(Loan(ownerID: owner.id, gadgetName: "iPad"))
            return owner
        }
        await #expect(throws: StorageError.foreignKeyViolation(constraint: "foreign key")) {
            try await database.write { try $0.delete(Owner.self, id: owner.id) }
        }
    }

    @Test(arguments: Backend.available) func aCheckConstraintFailureIsTyped(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        _ = try await database.write { try $0.insert(Gadget.sample()) }
        do {
            try await database.write { try $0.execute("UPDATE gadgets SET kind = 'watch'") }
            Issue.record("expected a constraint violation")
        } catch let error as StorageError {
            guard case .constraintViolation = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test(arguments: Backend.available) func aThrowingTransactionLeavesNothingBehind(on backend: Backend) async throws {
        struct Abort: Error {}
        let database = try makeDatabase(on: backend)
        await #expect(throws: Abort.self) {
            try await database.write { connection in
                _ = try connection.insert(Gadget.sample("one"))
                _ = try connection.insert(Gadget.sample("two"))
                throw Abort()
            }
        }
        #expect(try await database.read { try $0.count(Gadget.query()) } == 0)
    }

    @Test(arguments: Backend.available) func aConstraintFailureMidTransactionRollsBackEarlierWrites(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        await #expect(throws: StorageError.self) {
            try await database.write { connection in
                _ = try connection.insert(Gadget.sample("first"))
                _ = try connection.insert(Gadget.sample("first"))
            }
        }
        #expect(try await database.read { try $0.count(Gadget.query()) } == 0)
    }

    @Test(arguments: Backend.available) func aFailedSavepointUndoesOnlyItsOwnWork(on backend: Backend) async throws {
        struct Abort: Error {}
        let database = try makeDatabase(on: backend)
        try await database.write { connection in
            _ = try connection.insert(Gadget.sample("kept"))
            _ = try? connection.savepoint {
                _ = try connection.insert(Gadget.sample("dropped"))
                throw Abort()
            }
        }
        #expect(try await database.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["kept"])
    }

    @Test(arguments: Backend.available) func aStaleVersionIsAConflictAndTheFirstSaveSurvives(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let original = try await database.write { try $0.insert(Gadget.sample()) }
        var first = original
        first.count = 100
        var second = original
        second.count = 200
        let saved = try await database.write { [first] in try $0.update(checkingVersion: first) }
        #expect(saved.version == 2)
        await #expect(throws: StorageError.versionConflict(table: "gadgets", expected: 1, actual: 2)) {
            _ = try await database.write { [second] in try $0.update(checkingVersion: second) }
        }
        let stored = try await database.read { try $0.require(Gadget.self, id: original.id) }
        #expect(stored.count == 100)
        #expect(stored.version == 2)
    }

    @Test(arguments: Backend.available) func updatingADeletedRowIsNotFound(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let saved = try await database.write { try $0.insert(Gadget.sample()) }
        try await database.write { try $0.delete(Gadget.self, id: saved.id) }
        await #expect(throws: StorageError.notFound(table: "gadgets")) {
            try await database.write { try $0.update(saved) }
        }
        await #expect(throws: StorageError.notFound(table: "gadgets")) {
            _ = try await database.write { try $0.update(checkingVersion: saved) }
        }
    }

    @Test func readsCannotWrite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try makeDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        await #expect(throws: StorageError.self) {
            _ = try await database.read { try $0.insert(Gadget.sample()) }
        }
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("garbage.sqlite").path
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: path))
        do {
            _ = try makeDatabase(path: path)
            Issue.record("expected an error")
        } catch let error as StorageError {
            guard case .corrupt = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func aMissingFolderIsAnIOError() throws {
        do {
            _ = try Database(path: "/nonexistent-folder-\(UUID().uuidString)/db.sqlite")
            Issue.record("expected an error")
        } catch let error as StorageError {
            guard case .io = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }
}
