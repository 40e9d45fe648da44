import Foundation
import Storage

/// The backend the whole App suite runs on: SQLite files by default; PostgreSQL when
/// `PAYLOAD_CONSOLE_TEST_BACKEND=postgres`, on the server `PAYLOAD_CONSOLE_TEST_POSTGRES` names
/// (`make test` runs the suite once each way). Each console gets a schema of its own there, as
/// each gets a folder of its own for SQLite.
enum TestBackend: String {
    case sqlite, postgres

    static let current: TestBackend = {
        let named = ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_TEST_BACKEND"] ?? "sqlite"
        guard let backend = TestBackend(rawValue: named) else { fatalError("PAYLOAD_CONSOLE_TEST_BACKEND must be sqlite or postgres, not \(named)") }
        return backend
    }()

    /// The server's URL, e.g. `postgresql:///postgres?host=/tmp/pg&user=pc`.
    static let server = ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_TEST_POSTGRES"]

    /// `--db` for a new console: a file in `folder`, or a fresh schema on the server.
    func consoleDatabase(in folder: String) throws -> String {
        switch self {
        case .sqlite:
            return folder + "/console.sqlite"
        case .postgres:
            // The console makes its schema when it opens the database.
            return try Self.serverURL() + "&schema=\(Self.freshSchemaName())&pool=2"
        }
    }

    /// Whether tests that need the server run: it is named, or `make test` requires it (where
    /// a missing server then fails them instead of skipping).
    static let isPostgresWanted = server != nil || ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_REQUIRE_POSTGRES"] != nil

    /// An empty database in a fresh schema of its own on the server (tests run side by side).
    static func emptyPostgresDatabase() throws -> Database {
        guard case .postgres(var server) = try DatabaseLocation(try serverURL()) else {
            throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not a postgres:// URL")
        }
        server.schema = freshSchemaName()
        server.poolSize = 3
        return try Database(postgres: server)
    }

    private static func serverURL() throws -> String {
        guard let url = server, url.hasPrefix("postgres") else {
            throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES must name a postgres:// server to run tests on PostgreSQL")
        }
        return url.contains("?") ? url : url + "?"
    }

    private static func freshSchemaName() -> String {
        "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
}
