import Foundation
import Logging
import Synchronization

/// One SQLite database file: a single serialised writer and a pool of readers, each
/// connection on a thread of its own.
///
/// WAL mode lets readers run while the writer writes; writes queue on one connection so they
/// never fight over SQLite's lock. Every `write` is a transaction that rolls back when its
/// closure throws; every `read` sees one consistent snapshot. `read` and `write` suspend the
/// calling task while the work runs on the connection's thread, so a slow query never holds a
/// thread of Swift's cooperative pool. The `…Blocking` forms are for start-up, the command
/// line and tests.
public final class Database: Sendable {
    /// The path given at open, or `:memory:`; for a server, its address without a password.
    public let path: String
    /// The SQL the database speaks.
    public let dialect: Dialect
    /// Room on the file's disk for writes that free room (`<path>.reserve`); nil in memory.
    public let reserve: DiskReserve?
    private let writer: Worker
    /// On PostgreSQL, writers that take `write`s side by side with `writer` (see
    /// `init(postgres:writers:)`); nil when `writer` alone writes.
    private let writerPool: WorkerPool?
    private let readers: WorkerPool?
    private let checkpointer: Checkpointer?
    private let changes = ChangeTracker()
    /// On PostgreSQL: the server, for listening to other consoles' changes (`onCommit`).
    private let server: PostgresServer?
    /// This console's name in the change announcements it sends (`ChangeAnnouncement`).
    private let origin = String(UInt64.random(in: 1...UInt64.max), radix: 36)
    private let changeListener = Mutex<PostgresChangeListener?>(nil)

    /// Opens the database at `path` (created when missing). `:memory:` gives a private
    /// in-memory database, used by tests, where reads share the writer's connection.
    /// `functions` are callable from SQL on every connection.
    ///
    /// Where the room set aside for an SQLite file lives (`DiskReserve`): beside it.
    public static func reservePath(beside path: String) -> String {
        path + ".reserve"
    }

    /// A file that takes bulk writes from machines (log uploads) sets `background`: its writer
    /// runs at a lower priority, so people's requests get the cores first, and checkpoints run
    /// beside the writer rather than inside its commits (`Checkpointer`).
    public init(path: String, readerCount: Int = 4, busyTimeout: Duration = .seconds(5), functions: [TextFunction] = [],
                background: Bool = false) throws {
        self.path = path
        dialect = .sqlite
        server = nil
        let inMemory = path == ":memory:" || path.isEmpty
        reserve = inMemory ? nil : DiskReserve(path: Self.reservePath(beside: path))
        let isNewFile = !inMemory && !FileManager.default.fileExists(atPath: path)
        let writerConnection = try SQLiteConnection(path: inMemory ? ":memory:" : path, busyTimeout: busyTimeout, queryOnly: false)
        if !inMemory {
            try writerConnection.execute(script: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
            if isNewFile {
                // The file holds password hashes and session ids: readable by its owner only.
                chmod(path, 0o600)
            }
        }
        if background && !inMemory {
            // The pages a flood of inserts keeps touching — each index's newest page per device
            // and per app, and the tree above them — outgrow SQLite's default 2 MB cache once
            // the file holds millions of rows, and every miss is a read and a parse. 64 MB kept
            // them (5,000,000 lines: upload p99 -25%, Benchmarks/README "issue 25").
            try writerConnection.execute(script: "PRAGMA cache_size = -\(Self.backgroundWriterCacheKilobytes)")
        }
        changes.attach(to: writerConnection)
        for function in functions { try writerConnection.register(function) }
        let priority: WorkerThread.Priority = background ? .background : .normal
        checkpointer = background && !inMemory ? try Checkpointer(path: path, busyTimeout: busyTimeout, priority: priority) : nil
        checkpointer?.attach(to: writerConnection)
        writer = Worker(Connection(writerConnection), name: background ? "sqlite-bgwriter" : "sqlite-writer", priority: priority)
        writerPool = nil
        readers = inMemory ? nil : WorkerPool(try (0..<max(1, readerCount)).map { index in
            let reader = try SQLiteConnection(path: path, busyTimeout: busyTimeout, queryOnly: true)
            for function in functions { try reader.register(function) }
            return Worker(Connection(reader), name: "sqlite-reader-\(index)")
        })
    }

    /// Connects to a PostgreSQL server: one connection for the writer and the rest of
    /// `server.poolSize` for reads, each on a thread of its own as with SQLite, so everything
    /// above — transactions, records, the `read`/`write` API — works the same. Throws `io` with
    /// one line naming what failed (unreachable, refused, no such database). A schema the
    /// server names is made when missing, as SQLite makes a missing file.
    /// `writers` above one lets that many write transactions run at once, each on a connection
    /// of its own, for a database where the server's row locks (and our advisory locks) are
    /// what orders writers: the log store, whose uploads would otherwise queue behind one
    /// connection while the server has a core to spare. Such a database reports no committed
    /// changes (`onCommit`), which assumes one writer.
    public init(postgres server: PostgresServer, writers: Int = 1) throws {
        path = server.description
        dialect = .postgres
        self.server = server
        reserve = nil
        checkpointer = nil
        let writerSession = try PostgresSession(server: server, readOnly: false)
        if let schema = server.schema {
            guard SQL.isPlainIdentifier(schema) else { throw StorageError.invalidLocation("the schema must be a plain name") }
            do {
                try writerSession.execute(script: "CREATE SCHEMA IF NOT EXISTS \(schema)")
            } catch StorageError.uniqueViolation {
                // Another console made it at the same moment: it is there either way.
            }
        }
        writerSession.onWrite = { [changes] in changes.recordUnknownChange() }  // autocommit writes
        writer = Worker(Connection(writerSession), name: "postgres-writer")
        writerPool = writers > 1 ? WorkerPool([writer] + (try (1..<writers).map { index in
            Worker(Connection(try PostgresSession(server: server, readOnly: false)), name: "postgres-writer-\(index)")
        })) : nil
        readers = WorkerPool(try (0..<max(1, server.poolSize - writers)).map { index in
            Worker(Connection(try PostgresSession(server: server, readOnly: true)), name: "postgres-reader-\(index)")
        })
    }

    /// Opens the database `location` names (`--db`).
    public convenience init(_ location: DatabaseLocation, readerCount: Int = 4, functions: [TextFunction] = [], background: Bool = false) throws {
        switch location {
        case .sqlite(let path): try self.init(path: path, readerCount: readerCount, functions: functions, background: background)
        case .postgres(let server): try self.init(postgres: server)
        }
    }

    /// The page cache of a background file's writer (see `init(path:…)`), in KiB.
    static let backgroundWriterCacheKilobytes = 64 * 1024

    deinit {
        changeListener.withLock { $0?.stop() }
        if let checkpointer {
            let writer = writer
            writer.thread.submit { writer.connection.sqlite.map(checkpointer.detach) }
            checkpointer.stop()
        }
        writer.thread.stop()
        for extra in writerPool?.workers.dropFirst() ?? [] { extra.thread.stop() }
        readers?.stop()
    }

    /// Moves everything in the write-ahead log into the database file, so that the file alone
    /// is the whole database (a copy of it is a complete backup). Called when the server stops.
    public func checkpoint() async throws {
        guard dialect == .sqlite, path != ":memory:", !path.isEmpty else { return }
        _ = try await withWriterOutsideTransaction { try $0.rows("PRAGMA wal_checkpoint(TRUNCATE)").count }
    }

    /// Statements compiled so far on all connections. Once every query has been seen it stops
    /// growing; if it grows with every request, some SQL text is being built from values
    /// instead of binding them, and the statement cache is bypassed.
    public func statementsPrepared() async throws -> Int {
        var total = try await writer.run { $0.statementsPrepared }
        for reader in readers?.workers ?? [] {
            total += try await reader.run { $0.statementsPrepared }
        }
        return total
    }

    // MARK: committed changes

    /// Calls `observer` after every write that changed rows of `tables` has committed, with
    /// those rows, on the writer's thread before the next write starts: keep it short (drop
    /// cache entries). Changes to tables no observer watches are not collected at all. A table
    /// declared WITHOUT ROWID has no row ids to list: a change to it is the whole table's
    /// (`SQLiteChangeCapture`).
    ///
    /// On PostgreSQL the observer also hears what other consoles on the same database commit
    /// (`PostgresChangeListener`), on the listener's task, moments after their COMMIT — and,
    /// whenever listening (re)starts, that every watched table changed.
    public func onCommit(tables: Set<String>, _ observer: @escaping @Sendable (CommittedChanges) -> Void) {
        // What a write changed is gathered for one writer at a time; a database opened with
        // several is a programming error to watch, found at start, never by a request.
        precondition(writerPool == nil, "onCommit on a database with several writers")
        changes.observe(tables: tables, observer)
        if dialect == .sqlite {
            // The update hook is silent for WITHOUT ROWID tables; triggers speak for them.
            do {
                try withWriterOutsideTransactionBlocking { connection in
                    if let sqlite = connection.sqlite { try SQLiteChangeCapture.install(tables: tables, on: sqlite, tracker: changes) }
                }
            } catch {
                Logger(label: "payload-console.sqlite").warning(
                    "Could not install the triggers that tell caches a table without row ids changed",
                    metadata: ["tables": "\(tables.sorted())", "error": "\(error)"])
            }
        }
        if dialect == .postgres {
            // Triggers note the changed rows (PostgresChangeCapture); should they not install,
            // every write reports every watched table, which is slower but never stale.
            do {
                try withWriterOutsideTransactionBlocking { try PostgresChangeCapture.install(tables: tables, on: $0) }
            } catch {
                changes.captureFailed = true
                Logger(label: "payload-console.postgres").warning(
                    "Could not install the triggers that tell caches what changed; every write now empties them",
                    metadata: ["error": "\(error)"])
            }
            changeListener.withLock { listener in
                guard listener == nil, let server else { return }
                listener = PostgresChangeListener(server: server, origin: origin, tracker: changes,
                                                  logger: Logger(label: "payload-console.postgres"))
            }
        }
    }

    /// The server process that listens for other consoles' changes (`onCommit`), for tests.
    var changeListenerBackendPID: Int? { changeListener.withLock { $0?.backendPID } }

    /// How many writes that changed a watched table (see `onCommit`) have committed. A cache
    /// notes it before reading and keeps what it read only if it is unchanged, so a row read just
    /// before a change commits is not kept after the change's `onCommit` has passed; writes to
    /// tables nobody watches (log uploads, sessions) leave it alone.
    public var commitCount: Int { changes.commits.load(ordering: .sequentiallyConsistent) }

    // MARK: suspending

    /// Runs `body` in a write transaction (`Dialect.beginWrite`): committed when it returns,
    /// rolled back when it throws. Writers run one at a time, in the order they arrive.
    @discardableResult
    public func write<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        let tally = StatementTally.current
        guard let writerPool else {
            return try await writer.run { connection in
                try counted(into: tally, on: connection) { try tracking { try transaction(on: connection, writing: true, body) } }
            }
        }
        return try await writerPool.withIdleWorker { worker in
            try await worker.run { connection in try counted(into: tally, on: connection) { try transaction(on: connection, writing: true, body) } }
        }
    }

    /// Runs `body` with a reading connection inside one snapshot. Writes through it fail.
    ///
    /// Cancelling the calling task stops the read: on SQLite its running statement ends at
    /// once and the read throws `CancellationError`, leaving the connection ready for the next
    /// one (see `Connection.interruptible`). A write is never stopped this way.
    public func read<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        try await reading { connection, cancellation in
            try asReading(on: connection) { try transaction(on: connection, writing: false) { try $0.interruptible(by: cancellation, body) } }
        }
    }

    /// Runs one statement on a reading connection without `BEGIN`/`COMMIT`: a single statement
    /// is its own snapshot, and on hot paths (device check-in) the two extra round trips
    /// were a measurable share of the request. Use `read` for anything with two statements.
    /// Cancelling the calling task stops it as it stops a `read`.
    public func readSingleStatement<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        try await reading { connection, cancellation in
            try asReading(on: connection) { try connection.interruptible(by: cancellation, body) }
        }
    }

    /// Runs `body` on the writer outside any transaction: for statements SQLite refuses
    /// inside one, such as `VACUUM` or some pragmas.
    public func withWriterOutsideTransaction<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        let tally = StatementTally.current
        return try await writer.run { connection in try counted(into: tally, on: connection) { try tracking { try body(connection) } } }
    }

    /// Runs `job` with its statements counted into `tally` (the calling task's, taken before
    /// the job was handed to the connection's thread).
    private func counted<T>(into tally: StatementTally?, on connection: Connection, _ job: () throws -> T) rethrows -> T {
        guard let tally else { return try job() }
        tally.countTransaction()
        connection.tally = tally
        defer { connection.tally = nil }
        return try job()
    }

    /// Runs `job`, a read, with the number of committed changes noted before it began: a
    /// `TableCache` keeps what the read gave it only if nothing committed since. Writes note
    /// nothing, so nothing a write read (perhaps its own changes, perhaps rolled back) is kept.
    private func asReading<T>(on connection: Connection, _ job: () throws -> T) rethrows -> T {
        connection.commitsAtStart = (ObjectIdentifier(changes), commitCount)
        defer { connection.commitsAtStart = nil }
        return try job()
    }

    /// Whether `mark` (a read's `Connection.commitsAtStart`) is this database's and no write
    /// to a watched table has committed since it was taken.
    func isUnchanged(since mark: (tracker: ObjectIdentifier, count: Int)?) -> Bool {
        guard let mark, mark.tracker == ObjectIdentifier(changes) else { return false }
        return commitCount == mark.count
    }

    /// Runs a job on the writer and reports the rows it changed once it is over (committed, or
    /// failed part-way: `ChangeTracker.finish` says why both are reported).
    private func tracking<T>(_ job: () throws -> T) throws -> T {
        defer { changes.finish() }
        return try job()
    }

    /// Runs `body` on an idle reader (in memory: the writer's connection, between its writes)
    /// with the cancellation of the calling task.
    private func reading<T: Sendable>(_ body: (Connection, ReadCancellation) throws -> T) async throws -> T {
        let cancellation = ReadCancellation()
        let tally = StatementTally.current
        func job(_ connection: Connection) throws -> T { try counted(into: tally, on: connection) { try body(connection, cancellation) } }
        return try await withTaskCancellationHandler {
            guard let readers else { return try await writer.run(job) }
            return try await readers.withIdleWorker { reader in try await reader.run(job) }
        } onCancel: {
            cancellation.cancel()
        }
    }

    // MARK: blocking

    /// `write`, blocking the calling thread. A write or read inside another one's closure
    /// would wait for itself forever; it throws `nestedAccess` instead.
    @discardableResult
    public func writeBlocking<T>(_ body: (Connection) throws -> T) throws -> T {
        try refuseNesting()
        let tally = StatementTally.current
        return try writer.thread.runBlocking {
            try counted(into: tally, on: writer.connection) { try tracking { try transaction(on: writer.connection, writing: true, body) } }
        }
    }

    /// `read`, blocking the calling thread.
    public func readBlocking<T>(_ body: (Connection) throws -> T) throws -> T {
        try refuseNesting()
        let worker = readers?.anyWorker ?? writer
        let tally = StatementTally.current
        return try worker.thread.runBlocking {
            try counted(into: tally, on: worker.connection) {
                try asReading(on: worker.connection) { try transaction(on: worker.connection, writing: false, body) }
            }
        }
    }

    /// `withWriterOutsideTransaction`, blocking the calling thread: for migrations, which
    /// manage their own transactions.
    public func withWriterOutsideTransactionBlocking<T>(_ body: (Connection) throws -> T) throws -> T {
        try refuseNesting()
        let tally = StatementTally.current
        return try writer.thread.runBlocking { try counted(into: tally, on: writer.connection) { try tracking { try body(writer.connection) } } }
    }

    private func refuseNesting() throws {
        if writer.thread.isCurrent || writerPool?.isCurrent == true || readers?.isCurrent == true { throw StorageError.nestedAccess }
    }

    /// `BEGIN`, `COMMIT` and `ROLLBACK` go to the session itself: they are not the work's own
    /// statements (`StatementTally`), and on PostgreSQL they travel with the statements beside them.
    private func transaction<T>(on connection: Connection, writing: Bool, _ body: (Connection) throws -> T) throws -> T {
        try connection.session.execute(script: writing ? connection.dialect.beginWrite : connection.dialect.beginRead)
        do {
            let result = try body(connection)
            if writing && dialect == .postgres && !changes.captureFailed {
                try PostgresChangeCapture.collect(from: connection, into: changes, origin: origin,
                                                  channel: ChangeAnnouncement.channel(schema: server?.schema))
            }
            _ = try connection.session.execute("COMMIT")
            return result
        } catch {
            if connection.isInTransaction {
                _ = try? connection.session.execute("ROLLBACK")
            }
            throw error
        }
    }
}
