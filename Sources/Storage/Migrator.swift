import Foundation

/// One numbered schema change. Shipped migrations are never edited, only followed by new ones.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    let apply: @Sendable (Connection) throws -> Void

    /// A migration written as an SQL script both backends run.
    public init(_ version: Int, _ name: String, sql: String) {
        self.init(version, name) { connection in try connection.execute(script: sql) }
    }

    /// A migration written as one SQL script per backend, each in its own types.
    public init(_ version: Int, _ name: String, sqlite: String, postgres: String) {
        self.init(version, name) { connection in
            try connection.execute(script: connection.dialect == .sqlite ? sqlite : postgres)
        }
    }

    /// A migration that needs code, such as moving data between tables.
    public init(_ version: Int, _ name: String, apply: @escaping @Sendable (Connection) throws -> Void) {
        self.version = version
        self.name = name
        self.apply = apply
    }
}

/// Applies pending migrations in order, recording each in `schema_migrations`.
///
/// Each migration runs in its own transaction with foreign keys off, as SQLite's advice for
/// rebuilding a table requires (with them on, dropping the old table would cascade-delete the
/// rows that point at it), and `PRAGMA foreign_key_check` must find nothing before it commits.
/// A failed migration is rolled back and named in the error; the ones before it stay applied.
public struct Migrator: Sendable {
    public let migrations: [Migration]

    public init(_ migrations: [Migration]) {
        self.migrations = migrations.sorted { $0.version < $1.version }
    }

    /// Applies what is missing and returns the migrations applied now.
    @discardableResult
    public func migrate(_ database: Database) throws -> [Migration] {
        try validate()
        let migrations = migrations
        // Outside a transaction: SQLite ignores `PRAGMA foreign_keys` inside one.
        return try database.withWriterOutsideTransactionBlocking { connection in
            let postgres = connection.dialect == .postgres
            if postgres {
                // Two consoles starting together on one server: one migrates, the other waits
                // and then finds nothing left to do.
                try connection.execute("SELECT pg_advisory_lock(\(Self.advisoryLock))")
            }
            defer { if postgres { _ = try? connection.execute("SELECT pg_advisory_unlock(\(Self.advisoryLock))") } }
            try connection.execute(script: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    appliedAt \(postgres ? "timestamptz" : "REAL") NOT NULL
                )
                """)
            let applied = Set(try connection.rows("SELECT version FROM schema_migrations").map { try $0.first(as: Int.self) })
            let known = Set(migrations.map(\.version))
            if let unknown = applied.subtracting(known).max() {
                throw StorageError.migrationFailed(
                    version: unknown, name: "unknown",
                    message: "the database was migrated by a newer version of the console")
            }
            let pending = migrations.filter { !applied.contains($0.version) }
            for migration in pending {
                try apply(migration, on: connection)
            }
            return pending
        }
    }

    /// The advisory lock a PostgreSQL migration holds ("PCMIGRAT" read as a number).
    static let advisoryLock: Int64 = 0x50_43_4D_49_47_52_41_54

    private func apply(_ migration: Migration, on connection: Connection) throws {
        let sqlite = connection.dialect == .sqlite
        if sqlite { try connection.execute("PRAGMA foreign_keys = OFF") }
        defer { if sqlite { _ = try? connection.execute("PRAGMA foreign_keys = ON") } }
        try connection.execute(script: connection.dialect.beginWrite)
        do {
            try migration.apply(connection)
            // PostgreSQL checks foreign keys as each statement runs; SQLite, with them off for
            // the rebuild, only when asked.
            if sqlite, let broken = try connection.rows("PRAGMA foreign_key_check").first {
                let table = (try? broken.first(as: String.self)) ?? "a table"
                throw StorageError.migrationFailed(version: migration.version, name: migration.name,
                                                   message: "it leaves rows in \(table) pointing at rows that do not exist")
            }
            try connection.execute("INSERT INTO schema_migrations (version, name, appliedAt) VALUES (\(migration.version), \(migration.name), \(Date()))")
            try connection.execute("COMMIT")
        } catch {
            if connection.isInTransaction { _ = try? connection.execute("ROLLBACK") }
            if case StorageError.migrationFailed = error { throw error }
            throw StorageError.migrationFailed(version: migration.version, name: migration.name, message: "\(error)")
        }
    }

    /// The versions already recorded in the database.
    public func appliedVersions(in database: Database) throws -> [Int] {
        try database.readBlocking { connection in
            let exists = try connection.scalar(connection.dialect == .sqlite
                ? "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
                : "SELECT count(*) FROM pg_tables WHERE tablename = 'schema_migrations' AND schemaname = current_schema()", as: Int.self) ?? 0
            guard exists > 0 else { return [] }
            return try connection.rows("SELECT version FROM schema_migrations ORDER BY version").map { try $0.first(as: Int.self) }
        }
    }

    private func validate() throws {
        var seen = Set<Int>()
        for migration in migrations where !seen.insert(migration.version).inserted {
            throw StorageError.migrationFailed(version: migration.version, name: migration.name, message: "two migrations share this version")
        }
    }
}
