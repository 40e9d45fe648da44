import Foundation
import Storage

/// The throwaway PostgreSQL server of `make test`, for app tests that need one. It names the
/// server in `PAYLOAD_CONSOLE_TEST_POSTGRES` and sets `PAYLOAD_CONSOLE_REQUIRE_POSTGRES`, so
/// there a missing server fails these tests; a plain `swift test` without a server skips them.
/// (StorageTests' `Backend` does the same for the storage tests; test targets share no files.)
enum TestPostgres {
    /// The server's URL, e.g. `postgresql:///postgres?host=/tmp/pg&user=pc`.
    static let server = ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_TEST_POSTGRES"]

    /// Whether tests on PostgreSQL run: a server is named, or `make test` requires one.
    static let isWanted = server != nil || ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_REQUIRE_POSTGRES"] != nil

    /// An empty database in a fresh schema of its own: tests run in parallel on one server.
    static func emptyDatabase() throws -> Database {
        guard let server else {
            throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not set, yet make test requires the PostgreSQL half")
        }
        guard case .postgres(var location) = try DatabaseLocation(server) else {
            throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not a postgres:// URL")
        }
        let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        location.poolSize = 3
        let setup = try Database(postgres: location)
        try setup.withWriterOutsideTransactionBlocking { try $0.execute(script: "CREATE SCHEMA \(schema)") }
        location.schema = schema
        return try Database(postgres: location)
    }
}
