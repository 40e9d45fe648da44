import Foundation
import Synchronization

/// One SQLite database file: a single serialised writer and a small pool of readers.
///
/// WAL mode lets readers run while the writer writes; writes queue on one connection so they
/// never fight over SQLite's lock. Every `write` is a transaction that rolls back when its
/// closure throws; every `read` sees one consistent snapshot.
public final class Database: Sendable {
    /// The path given at open, or `:memory:`.
    public let path: String
    private let writer: GuardedConnection
    private let readers: [GuardedConnection]
    private let nextReader = Atomic<Int>(0)

    /// Opens the database at `path` (created when missing). `:memory:` gives a private
    /// in-memory database, used by tests, where reads share the writer's connection.
    public init(path: String, readerCount: Int = 4, busyTimeout: Duration = .seconds(5)) throws {
        self.path = path
        let inMemory = path == ":memory:" || path.isEmpty
        let isNewFile = !inMemory && !FileManager.default.fileExists(atPath: path)
        let writerConnection = try Connection(path: inMemory ? ":memory:" : path, busyTimeout: busyTimeout, queryOnly: false)
        if !inMemory {
            try writerConnection.execute(script: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            if isNewFile {
                // The file holds password hashes and session ids: readable by its owner only.
                chmod(path, 0o600)
            }
        }
        writer = GuardedConnection(writerConnection)
        readers = inMemory ? [] : try (0..<max(1, readerCount)).map { _ in
            GuardedConnection(try Connection(path: path, busyTimeout: busyTimeout, queryOnly: true))
        }
    }

    /// Runs `body` in a write transaction (`BEGIN IMMEDIATE`): committed when it returns,
    /// rolled back when it throws. Writers run one at a time.
    @discardableResult
    public func write<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in
            try Self.transaction(on: connection, begin: "BEGIN IMMEDIATE", body)
        }
    }

    /// Runs `body` with a reading connection inside one snapshot. Writes through it fail.
    public func read<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        if readers.isEmpty {
            return try writer.withLock { connection in
                try Self.transaction(on: connection, begin: "BEGIN", body)
            }
        }
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        return try readers[index].withLock { connection in
            try Self.transaction(on: connection, begin: "BEGIN", body)
        }
    }

    /// Runs one statement on a reading connection without `BEGIN`/`COMMIT`: a single statement
    /// is its own snapshot, and on hot paths (device check-in) the two extra round trips
    /// were a measurable share of the request. Use `read` for anything with two statements.
    public func readSingleStatement<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        if readers.isEmpty {
            return try writer.withLock { connection in try body(connection) }
        }
        let index = nextReader.wrappingAdd(1, ordering: .relaxed).oldValue % readers.count
        return try readers[index].withLock { connection in try body(connection) }
    }

    /// Runs `body` on the writer outside any transaction: for statements SQLite refuses
    /// inside one, such as `VACUUM` or some pragmas.
    public func withWriterOutsideTransaction<T: Sendable>(_ body: (Connection) throws -> T) throws -> T {
        try writer.withLock { connection in try body(connection) }
    }

    private static func transaction<T>(on connection: Connection, begin: SQL, _ body: (Connection) throws -> T) throws -> T {
        try connection.execute(begin)
        do {
            let result = try body(connection)
            try connection.execute("COMMIT")
            return result
        } catch {
            if connection.isInTransaction {
                _ = try? connection.execute("ROLLBACK")
            }
            throw error
        }
    }
}

/// A connection behind its own lock. SQLite connections are not thread-safe; the lock is the
/// only way to reach this one, so it is used by one thread at a time.
private final class GuardedConnection: @unchecked Sendable {
    private let lock = NSLock()
    private let connection: Connection

    init(_ connection: Connection) {
        self.connection = connection
    }

    func withLock<T>(_ body: (Connection) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(connection)
    }
}
