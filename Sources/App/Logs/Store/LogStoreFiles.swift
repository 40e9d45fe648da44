import Foundation
import Logging
import Storage

/// The console's two database files: its own (accounts, catalog, profiles, devices, audit) and
/// the log store's beside it (`LogSchema`), each with its writer. Opened and migrated together
/// everywhere — serving, `migrate`, the command line's accounts and tokens — because console
/// migration 21 drops the log tables only once `LogStoreMove` has carried them over.
package struct LogStoreFiles: Sendable {
    package let console: Database
    package let logs: Database

    /// The log store's file for a console file: `data/payload-console.sqlite` keeps its logs in
    /// `data/payload-console-logs.sqlite`. In memory, in memory.
    static func logsPath(beside consolePath: String) -> String {
        if consolePath == ":memory:" || consolePath.isEmpty { return ":memory:" }
        let path = consolePath as NSString
        let stem = (path.lastPathComponent as NSString).deletingPathExtension
        let name = path.pathExtension.isEmpty ? "\(stem)-logs" : "\(stem)-logs.\(path.pathExtension)"
        return (path.deletingLastPathComponent as NSString).appendingPathComponent(name)
    }

    /// What opening did, for the person starting the console.
    package struct Opened {
        package let files: LogStoreFiles
        var applied: [String] = []
    }

    /// Opens both files (created when missing), brings both schemas up to date and moves a
    /// console file's log tables into the log store's file first if it still has them.
    package static func open(consolePath: String, logsPath: String? = nil) throws -> Opened {
        if case .postgres(let server) = try DatabaseLocation(consolePath) {
            return try open(postgres: server)
        }
        let console = try Database(path: consolePath)
        let logs = try Database(path: logsPath ?? Self.logsPath(beside: consolePath), functions: LogSearchFunctions.all, background: true)
        var applied = try Migrator(LogSchema.migrations).migrate(logs).map { "Applied log store migration \($0.version): \($0.name)" }
        if let moved = try LogStoreMove.moveIfNeeded(from: console, to: logs) {
            applied.append("Moved \(moved.formatted()) log lines into \(logs.path); they are indexed for search in the background.")
        }
        applied += try Migrator(Schema.migrations).migrate(console).map { "Applied migration \($0.version): \($0.name)" }
        return Opened(files: LogStoreFiles(console: console, logs: logs), applied: applied)
    }

    /// On PostgreSQL both live in one database: the console's tables where the URL points, the
    /// log store's in a schema of their own beside them (`<schema>_logs`), each with its own
    /// connections and migrations. There is no older layout to move from.
    static func open(postgres server: PostgresServer) throws -> Opened {
        let console = try Database(postgres: server)
        var logServer = server
        logServer.schema = logSchema(beside: server.schema)
        // Two writers: uploads for different apps store side by side, each on its own
        // connection, while one waits on the server (`LogStore.accept` locks an app's usage).
        let logs = try Database(postgres: logServer, writers: Self.postgresLogWriters)
        var applied = try Migrator(LogSchema.migrations).migrate(logs).map { "Applied log store migration \($0.version): \($0.name)" }
        try logs.writeBlocking { try LogPartitions.prepare(around: Date(), in: $0) }
        applied += try Migrator(Schema.migrations).migrate(console).map { "Applied migration \($0.version): \($0.name)" }
        return Opened(files: LogStoreFiles(console: console, logs: logs), applied: applied)
    }

    static let postgresLogWriters = 2

    /// `fleet_logs` beside a console in schema `fleet`; `payload_console_logs` beside the default.
    static func logSchema(beside schema: String?) -> String {
        schema.map { "\($0)_logs" } ?? "payload_console_logs"
    }
}
