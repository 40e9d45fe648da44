import Foundation
import Storage
import Testing

/// The backends a storage test runs on: SQLite always; PostgreSQL when the environment names a
/// server (`make test` starts a throwaway one and sets `PAYLOAD_CONSOLE_TEST_POSTGRES`). A plain
/// `swift test` without one skips the PostgreSQL half and says so once; `make test` also sets
/// `PAYLOAD_CONSOLE_REQUIRE_POSTGRES`, so there a missing server fails instead.
enum Backend: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }

    static let available: [Backend] = {
        if testServer != nil { return [.sqlite, .postgres] }
        if ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_REQUIRE_POSTGRES"] != nil {
            // Run as a PostgreSQL case, so the missing server fails each test that needs it.
            return [.sqlite, .postgres]
        }
        print("notice: PAYLOAD_CONSOLE_TEST_POSTGRES is not set; storage tests run on SQLite only")
        return [.sqlite]
    }()

    /// The server's URL, e.g. `postgresql:///postgres?host=/tmp/pg&user=pc`.
    static let testServer = ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_TEST_POSTGRES"]

    /// Two databases on one empty store, as two console processes would open it: a file for
    /// SQLite, a schema for PostgreSQL. The fixture tables are made.
    func twoDatabasesOnOneStore() throws -> (Database, Database) {
        switch self {
        case .sqlite:
            let path = try temporaryDirectory().appendingPathComponent("shared.sqlite").path
            let first = try Database(path: path)
            try Migrator(fixtureMigrations).migrate(first)
            return (first, try Database(path: path))
        case .postgres:
            let first = try emptyDatabase()
            try Migrator(fixtureMigrations).migrate(first)
            guard case .postgres(var server) = try DatabaseLocation(Self.testServer ?? "") else { throw StorageError.invalidLocation("no server") }
            server.schema = try first.readBlocking { try $0.scalar("SELECT current_schema()", as: String.self) }
            server.poolSize = 3
            return (first, try Database(postgres: server))
        }
    }

    /// An empty database of this backend: in memory for SQLite, a fresh schema of its own for
    /// PostgreSQL (tests run in parallel on one server).
    func emptyDatabase() throws -> Database {
        switch self {
        case .sqlite:
            return try Database(path: ":memory:")
        case .postgres:
            guard let url = Self.testServer else {
                throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not set, yet make test requires the PostgreSQL half")
            }
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            guard case .postgres(var server) = try DatabaseLocation(url) else {
                throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not a postgres:// URL")
            }
            server.poolSize = 3
            server.schema = schema
            return try Database(postgres: server)
        }
    }
}
