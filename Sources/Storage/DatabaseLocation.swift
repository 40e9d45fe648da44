import Foundation

/// Where a console keeps its data, as `--db` gives it: a file path means an embedded SQLite
/// file; `postgres://user@host:port/name` (or `postgresql://`, and the Unix-socket form
/// `postgresql:///name?host=/run/postgresql`) means a PostgreSQL server.
public enum DatabaseLocation: Sendable, Equatable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(PostgresServer)

    /// Reads `--db`. Throws `invalidLocation` naming what is wrong with a URL, never echoing a
    /// password.
    public init(_ text: String) throws {
        let lowered = text.lowercased()
        guard lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://") else {
            self = .sqlite(path: text)
            return
        }
        self = .postgres(try PostgresServer(url: text))
    }

    /// The location for logs and messages: a server's password is never part of it.
    public var description: String {
        switch self {
        case .sqlite(let path): path
        case .postgres(let server): server.description
        }
    }
}

/// A PostgreSQL server, database and role to connect as.
public struct PostgresServer: Sendable, Equatable, CustomStringConvertible {
    public enum Address: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file itself (`<folder>/.s.PGSQL.<port>`).
        case unixSocket(path: String)
    }

    public var address: Address
    public var username: String
    public var password: String?
    public var database: String
    /// Connections of the console database's pool: one writer and the rest for reads. A console
    /// opens a few more beside them — the log store's writers and readers, the readiness probe's,
    /// the change listener's and, at start, the start-up lock's — which `max_connections` must allow.
    public var poolSize: Int
    /// The schema tables live in (`search_path`), when not the role's default: tests give each
    /// suite a schema of its own in one throwaway server.
    public var schema: String?

    /// Parses a `postgres://` URL. A missing user is the login name (as `psql` does); a
    /// password may also come from `PGPASSWORD`, which keeps it out of the command line.
    init(url text: String) throws {
        guard let components = URLComponents(string: text) else {
            throw StorageError.invalidLocation("the database URL is not a URL (expected postgres://user@host:port/name)")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        let name = String(components.percentEncodedPath.dropFirst()).removingPercentEncoding ?? ""
        guard !name.isEmpty, !name.contains("/") else {
            throw StorageError.invalidLocation("the database URL names no database (expected postgres://user@host:port/name)")
        }
        var port = 5432
        if let given = components.port ?? query["port"].flatMap(Int.init) {
            guard (1...65535).contains(given) else { throw StorageError.invalidLocation("the database URL's port must be 1–65535") }
            port = given
        }
        if let text = query["port"], Int(text) == nil {
            throw StorageError.invalidLocation("the database URL's port must be a number")
        }
        let host = components.percentEncodedHost.flatMap { $0.removingPercentEncoding } ?? ""
        if let folder = query["host"], folder.hasPrefix("/") {
            address = .unixSocket(path: "\(folder)/.s.PGSQL.\(port)")
        } else if !host.isEmpty {
            address = .tcp(host: host, port: port)
        } else if let folder = query["host"], !folder.isEmpty {
            address = .tcp(host: folder, port: port)
        } else {
            address = .unixSocket(path: "/var/run/postgresql/.s.PGSQL.\(port)")
        }
        username = components.user?.removingPercentEncoding ?? query["user"]
            ?? ProcessInfo.processInfo.environment["PGUSER"] ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        password = components.password?.removingPercentEncoding ?? ProcessInfo.processInfo.environment["PGPASSWORD"]
        database = name
        poolSize = 5
        if let text = query["pool"] {
            guard let size = Int(text), (2...100).contains(size) else {
                throw StorageError.invalidLocation("the database URL's pool must be 2–100 connections")
            }
            poolSize = size
        }
        if let schema = query["schema"] {
            guard SQL.isPlainIdentifier(schema) else { throw StorageError.invalidLocation("the database URL's schema must be a plain name") }
            self.schema = schema
        }
        if let mode = query["sslmode"], !["disable", "prefer", "allow"].contains(mode) {
            throw StorageError.invalidLocation("sslmode=\(mode) is not supported yet: connect over a private network or a Unix socket")
        }
    }

    /// `postgres://user@host:5432/name`: the password left out.
    public var description: String {
        switch address {
        case .tcp(let host, let port): "postgres://\(username)@\(host):\(port)/\(database)"
        case .unixSocket(let path): "postgresql:///\(database)?host=\((path as NSString).deletingLastPathComponent) (as \(username))"
        }
    }
}
