import Foundation
import Storage
import Testing

@Suite struct MigratorTests {
    @Test func aFreshDatabaseGetsEveryMigrationInOrder() throws {
        let database = try Database(path: ":memory:")
        let applied = try Migrator(fixtureMigrations.reversed()).migrate(database)
        #expect(applied.map(\.version) == [1, 2])
        #expect(try Migrator(fixtureMigrations).appliedVersions(in: database) == [1, 2])
    }

    @Test func anExistingDatabaseOnlyGetsWhatIsMissingAndKeepsItsData() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let database = try Database(path: path)
            try Migrator(Array(fixtureMigrations.prefix(1))).migrate(database)
            _ = try database.write { try $0.insert(Gadget.sample("kept")) }
        }
        let reopened = try Database(path: path)
        let applied = try Migrator(fixtureMigrations).migrate(reopened)
        #expect(applied.map(\.version) == [2])
        #expect(try Migrator(fixtureMigrations).migrate(reopened).isEmpty)
        #expect(try reopened.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["kept"])
    }

    @Test func aFailingMigrationLeavesTheDatabaseAsItWas() throws {
        let database = try Database(path: ":memory:")
        try Migrator(Array(fixtureMigrations.prefix(1))).migrate(database)
        let broken = fixtureMigrations + [
            Migration(3, "add colour", sql: "ALTER TABLE gadgets ADD COLUMN colour TEXT"),
            Migration(4, "typo", sql: "CREATE TABLEX nonsense (id)"),
        ]
        #expect(throws: StorageError.self) {
            try Migrator(broken).migrate(database)
        }
        do {
            try Migrator(broken).migrate(database)
        } catch let StorageError.migrationFailed(version, name, _) {
            #expect(version == 4)
            #expect(name == "typo")
        }
        #expect(try Migrator(broken).appliedVersions(in: database) == [1])
        let ownersTable = try database.read { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'owners'", as: Int.self) }
        #expect(ownersTable == 0)
        let columns = try database.read { try $0.rows("PRAGMA table_info(gadgets)") }.compactMap { try? $0.get("name", as: String.self) }
        #expect(!columns.contains("colour"))
    }

    @Test func aDatabaseFromANewerConsoleIsRefused() throws {
        let database = try makeDatabase()
        #expect(throws: StorageError.self) {
            try Migrator(Array(fixtureMigrations.prefix(1))).migrate(database)
        }
    }

    @Test func duplicateVersionsAreRejectedBeforeTouchingTheDatabase() throws {
        let database = try Database(path: ":memory:")
        #expect(throws: StorageError.self) {
            try Migrator([Migration(1, "a", sql: "CREATE TABLE a (id)"), Migration(1, "b", sql: "CREATE TABLE b (id)")]).migrate(database)
        }
        #expect(try Migrator([]).appliedVersions(in: database).isEmpty)
    }
}
