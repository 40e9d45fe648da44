import Foundation
import Storage
import Testing

@Suite struct ConstraintAndTransactionTests {
    @Test func aDuplicateUniqueValueNamesTheConstraint() throws {
        let database = try makeDatabase()
        _ = try database.write { try $0.insert(Gadget.sample("same")) }
        #expect(throws: StorageError.uniqueViolation(constraint: "gadgets.name")) {
            _ = try database.write { try $0.insert(Gadget.sample("same")) }
        }
    }

    @Test func aMissingParentIsAForeignKeyViolation() throws {
        let database = try makeDatabase()
        #expect(throws: StorageError.foreignKeyViolation(constraint: "foreign key")) {
            _ = try database.write { try $0.insert(Loan(ownerID: RecordID(42), gadgetName: "x")) }
        }
    }

    @Test func deletingAReferencedParentIsRefused() throws {
        let database = try makeDatabase()
        let owner = try database.write { connection in
            let owner = try connection.insert(Owner(name: "Clinic"))
            _ = try connection.insert(Loan(ownerID: try owner.requireID, gadgetName: "iPad"))
            return owner
        }
        #expect(throws: StorageError.foreignKeyViolation(constraint: "foreign key")) {
            try database.write { try $0.delete(Owner.self, id: owner.requireID) }
        }
    }

    @Test func aCheckConstraintFailureIsTyped() throws {
        let database = try makeDatabase()
        _ = try database.write { try $0.insert(Gadget.sample()) }
        do {
            try database.write { try $0.execute("UPDATE gadgets SET kind = 'watch'") }
            Issue.record("expected a constraint violation")
        } catch let error as StorageError {
            guard case .constraintViolation = error else {
                Issue.record("unexpected \(error)")
                return
            }
        }
    }

    @Test func aThrowingTransactionLeavesNothingBehind() throws {
        struct Abort: Error {}
        let database = try makeDatabase()
        #expect(throws: Abort.self) {
            try database.write { connection in
                _ = try connection.insert(Gadget.sample("one"))
                _ = try connection.insert(Gadget.sample("two"))
                throw Abort()
            }
        }
        #expect(try database.read { try $0.count(Gadget.query()) } == 0)
    }

    @Test func aConstraintFailureMidTransactionRollsBackEarlierWrites() throws {
        let database = try makeDatabase()
        #expect(throws: StorageError.self) {
            try database.write { connection in
                _ = try connection.insert(Gadget.sample("first"))
                _ = try connection.insert(Gadget.sample("first"))
            }
        }
        #expect(try database.read { try $0.count(Gadget.query()) } == 0)
    }

    @Test func aFailedSavepointUndoesOnlyItsOwnWork() throws {
        struct Abort: Error {}
        let database = try makeDatabase()
        try database.write { connection in
            _ = try connection.insert(Gadget.sample("kept"))
            _ = try? connection.savepoint {
                _ = try connection.insert(Gadget.sample("dropped"))
                throw Abort()
            }
        }
        #expect(try database.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["kept"])
    }

    @Test func aStaleVersionIsAConflictAndTheFirstSaveSurvives() throws {
        let database = try makeDatabase()
        let original = try database.write { try $0.insert(Gadget.sample()) }
        var first = original
        first.count = 100
        var second = original
        second.count = 200
        let saved = try database.write { [first] in try $0.update(checkingVersion: first) }
        #expect(saved.version == 2)
        #expect(throws: StorageError.versionConflict(table: "gadgets", expected: 1, actual: 2)) {
            _ = try database.write { [second] in try $0.update(checkingVersion: second) }
        }
        let stored = try database.read { try $0.require(Gadget.self, id: original.requireID) }
        #expect(stored.count == 100)
        #expect(stored.version == 2)
    }

    @Test func updatingADeletedRowIsNotFound() throws {
        let database = try makeDatabase()
        let saved = try database.write { try $0.insert(Gadget.sample()) }
        try database.write { try $0.delete(Gadget.self, id: saved.requireID) }
        #expect(throws: StorageError.notFound(table: "gadgets")) {
            try database.write { try $0.update(saved) }
        }
        #expect(throws: StorageError.notFound(table: "gadgets")) {
            _ = try database.write { try $0.update(checkingVersion: saved) }
        }
    }

    @Test func readsCannotWrite() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try makeDatabase(path: directory.appendingPathComponent("db.sqlite").path)
        #expect(throws: StorageError.self) {
            _ = try database.read { try $0.insert(Gadget.sample()) }
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
