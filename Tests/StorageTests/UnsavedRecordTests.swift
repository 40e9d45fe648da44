import Foundation
import Storage
import Testing

/// A record not stored yet holds `RecordID.unsaved` (0) instead of a nil id. These tests pin
/// down that the storage layer treats it as "no row": insert leaves the column out, and every
/// call that names a row refuses it — even when a row 0 was written by hand, which they must
/// never touch.
@Suite struct UnsavedRecordTests {
    @Test func aRecordNotStoredYetHoldsTheUnsavedIDThatNoAddressCanName() {
        let gadget = Gadget.sample()
        #expect(gadget.id == .unsaved)
        #expect(gadget.id.rawValue == 0)
        #expect(!gadget.id.isSaved)
        #expect(gadget.id.ifSaved == nil)
        #expect(RecordID<Gadget>("0") == nil)
        #expect(RecordID<Gadget>("-3") == nil)
    }

    @Test(arguments: Backend.available) func insertGivesPositiveIDsAndNeverStoresRowZero(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let (first, second) = try await database.write { (try $0.insert(Owner(name: "Ana")), try $0.insert(Owner(name: "Ben"))) }
        #expect(first.id.rawValue > 0 && second.id.rawValue > 0)
        #expect(first.id != second.id)
        #expect(first.id.ifSaved == first.id)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM owners WHERE id = 0", as: Int.self) } == 0)
        #expect(try await database.read { try $0.require(Owner.self, id: second.id) }.name == "Ben")
    }

    @Test(arguments: Backend.available) func anExplicitIDIsKeptOnInsert(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let saved = try await database.write { try $0.insert(Owner(id: RecordID(42), name: "Copied")) }
        #expect(saved.id == RecordID(42))
        #expect(try await database.read { try $0.find(Owner.self, id: RecordID(42)) } == saved)
    }

    @Test(arguments: Backend.available) func updatingAnUnsavedRecordIsNotFoundAndLeavesRowZeroAlone(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        try await insertRowZero(named: "Zero", in: database)
        await #expect(throws: StorageError.notFound(table: "owners")) {
            try await database.write { try $0.update(Owner(name: "Overwritten")) }
        }
        #expect(try await ownerNames(in: database) == ["Zero"])
    }

    @Test(arguments: Backend.available) func aVersionCheckedUpdateOfAnUnsavedRecordIsNotFound(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        let stored = try await database.write { try $0.insert(Gadget.sample("Row zero")) }
        try await database.write { try $0.execute("UPDATE gadgets SET id = 0 WHERE id = \(stored.id)") }
        var unsaved = Gadget.sample("Overwritten")
        unsaved.version = stored.version
        await #expect(throws: StorageError.notFound(table: "gadgets")) {
            _ = try await database.write { [unsaved] in try $0.update(checkingVersion: unsaved) }
        }
        #expect(try await database.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["Row zero"])
    }

    @Test(arguments: Backend.available) func deletingOrFindingTheUnsavedIDNamesNoRow(on backend: Backend) async throws {
        let database = try makeDatabase(on: backend)
        try await insertRowZero(named: "Zero", in: database)
        await #expect(throws: StorageError.notFound(table: "owners")) {
            try await database.write { try $0.delete(Owner.self, id: .unsaved) }
        }
        #expect(try await database.read { try $0.find(Owner.self, id: .unsaved) } == nil)
        await #expect(throws: StorageError.notFound(table: "owners")) {
            _ = try await database.read { try $0.require(Owner.self, id: .unsaved) }
        }
        #expect(try await ownerNames(in: database) == ["Zero"])
    }

    /// A row whose id is 0, written with SQL as no console would: the refusals above must not
    /// reach it.
    private func insertRowZero(named name: String, in database: Database) async throws {
        try await database.write { try $0.execute("INSERT INTO owners (id, name) VALUES (0, \(name))") }
    }

    private func ownerNames(in database: Database) async throws -> [String] {
        try await database.read { try $0.fetch(Owner.query().order(by: "id")) }.map(\.name)
    }
}
