import Foundation

/// One numbered schema change. Shipped migrations are never edited, only followed by new ones.
public struct Migration: Sendable {
    public let version: Int
    public let name: String
    let apply: @Sendable (Connection) throws -> Void

    /// A migration written as an SQL script.
    public init(_ version: Int, _ name: String, sql: String) {
        self.init(version, name) { connection in try connection.execute(script: sql) }
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
/// All pending migrations run in one transaction: if any fails, the database is left exactly
/// as it was and the error names the migration.
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
        return try database.write { connection in
            try connection.execute(script: """
                CREATE TABLE IF NOT EXISTS schema_migrations (
                    version INTEGER PRIMARY KEY,
                    name TEXT NOT NULL,
                    appliedAt REAL NOT NULL
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
                do {
                    try migration.apply(connection)
                    try connection.execute("INSERT INTO schema_migrations (version, name, appliedAt) VALUES (\(migration.version), \(migration.name), \(Date()))")
                } catch {
                    throw StorageError.migrationFailed(version: migration.version, name: migration.name, message: "\(error)")
                }
            }
            return pending
        }
    }

    /// The versions already recorded in the database.
    public func appliedVersions(in database: Database) throws -> [Int] {
        try database.read { connection in
            let exists = try connection.scalar("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'", as: Int.self) ?? 0
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
