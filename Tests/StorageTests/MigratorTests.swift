import Foundation
import Storage
import Testing

@Suite struct MigratorTests {
    @Test(arguments: Backend.available) func aFreshDatabaseGetsEveryMigrationInOrder(on backend: Backend) throws {
        let database = try backend.emptyDatabase()
        let applied = try Migrator(fixtureMigrations.reversed()).migrate(database)
        #expect(applied.map(\.version) == [1, 2])
        #expect(try Migrator(fixtureMigrations).appliedVersions(in: database) == [1, 2])
    }

    @Test func anExistingDatabaseOnlyGetsWhatIsMissingAndKeepsItsData() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        do {
            let database = try Database(path: path)
            try Migrator(Array(fixtureMigrations.prefix(1))).migrate(database)
            _ = try await database.write { try $0.insert(Gadget.sample("kept")) }
        }
        let reopened = try Database(path: path)
        let applied = try Migrator(fixtureMigrations).migrate(reopened)
        #expect(applied.map(\.version) == [2])
        #expect(try Migrator(fixtureMigrations).migrate(reopened).isEmpty)
        #expect(try await reopened.read { try $0.fetch(Gadget.query()) }.map(\.name) == ["kept"])
    }

    @Test(arguments: Backend.available) func aFailingMigrationIsRolledBackAndTheOnesBeforeItStay(on backend: Backend) async throws {
        let database = try backend.emptyDatabase()
        try Migrator(Array(fixtureMigrations.prefix(1))).migrate(database)
        let broken = fixtureMigrations + [
            Migration(3, "add colour", sql: "ALTER TABLE gadgets ADD COLUMN colour TEXT"),
            Migration(4, "typo", sql: "CREATE TABLE half (id); CREATE TABLEX nonsense (id)"),
        ]
        do {
            try Migrator(broken).migrate(database)
            Issue.record("the typo should have failed")
        } catch let StorageError.migrationFailed(version, name, _) {
            #expect(version == 4)
            #expect(name == "typo")
        }
        #expect(try Migrator(broken).appliedVersions(in: database) == [1, 2, 3])
        // Selecting from a table that is not there fails; one that is, answers.
        await #expect(throws: StorageError.self) { try await database.read { try $0.scalar("SELECT count(*) FROM half", as: Int.self) } }
        #expect(try await database.read { try $0.scalar("SELECT count(colour) FROM gadgets", as: Int.self) } == 0)
    }

    /// SQLite's recipe for changing a table — create a new one, copy, drop the old, rename —
    /// would, with foreign keys on, cascade-delete every row pointing at the old table.
    @Test func rebuildingATableKeepsTheRowsThatPointAtIt() async throws {
        let database = try Database(path: ":memory:")
        let parents = Migration(1, "parents and children", sql: """
            CREATE TABLE parents (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE children (id INTEGER PRIMARY KEY, parentID INTEGER NOT NULL REFERENCES parents(id) ON DELETE CASCADE);
            INSERT INTO parents VALUES (1, 'one');
            INSERT INTO children VALUES (1, 1);
            """)
        try Migrator([parents]).migrate(database)
        let rebuild = Migration(2, "rebuild parents", sql: """
            CREATE TABLE parents_new (id INTEGER PRIMARY KEY, name TEXT NOT NULL, note TEXT NOT NULL DEFAULT '');
            INSERT INTO parents_new (id, name) SELECT id, name FROM parents;
            DROP TABLE parents;
            ALTER TABLE parents_new RENAME TO parents;
            """)
        try Migrator([parents, rebuild]).migrate(database)
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM children", as: Int.self) } == 1)

        let orphaning = Migration(3, "orphan a child", sql: "DELETE FROM parents")
        #expect(throws: StorageError.self) { try Migrator([parents, rebuild, orphaning]).migrate(database) }
        #expect(try await database.read { try $0.scalar("SELECT count(*) FROM parents", as: Int.self) } == 1)
        #expect(try Migrator([]).appliedVersions(in: database) == [1, 2])
    }

    @Test(arguments: Backend.available) func aDatabaseFromANewerConsoleIsRefused(on backend: Backend) throws {
        let database = try makeDatabase(on: backend)
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
