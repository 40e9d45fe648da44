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
            guard let url = Self.server, case .postgres(let server) = try DatabaseLocation(url) else {
                throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES must name a postgres:// server to run the App tests on PostgreSQL")
            }
            let schema = "c_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            var setup = server
            setup.poolSize = 2
            try Database(postgres: setup).withWriterOutsideTransactionBlocking { try $0.execute(script: "CREATE SCHEMA \(schema)") }
            return url + (url.contains("?") ? "&" : "?") + "schema=\(schema)&pool=2"
        }
    }
}
