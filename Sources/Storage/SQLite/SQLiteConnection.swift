import CSQLite
import Foundation

/// One SQLite connection with its cache of prepared statements: what `Connection` runs on for
/// an embedded database file.
///
/// A connection is not thread-safe; `Database` hands it to one closure at a time.
final class SQLiteConnection: Session {
    let handle: OpaquePointer
    private var statements: [String: Statement] = [:]
    /// Prepared statements kept per connection; beyond this the cache starts afresh, which only
    /// happens if code builds SQL text dynamically (it should bind values instead).
    private let statementCacheLimit = 512
    /// How many statements this connection has compiled: it stays put when the same SQL runs
    /// again, which is how a test sees that the cache is used.
    private(set) var statementsPrepared = 0
    /// Its statements' looks up from their work (`look()`), every fifth of which yields the core.
    var looks = GiveWay(every: SQLiteConnection.looksBetweenYields)
    /// Yields between the rows of batch inserts (`execute(_:forEachOf:)`).
    var rowsGivenWay = 0
    /// The read running now, while it can be cancelled (`interruptible(by:)`).
    var cancellation: ReadCancellation?

    /// SQLite's settings for the whole process, made once before its first connection (it
    /// refuses them afterwards). Without the memory counts SQLite takes no lock of its own
    /// around each allocation: the log writer spent about 8% of its time in those locks.
    private static let processSettings: Void = {
        _ = csqlite_stop_counting_memory()
    }()

    /// Opens (or creates) the database file at `path` and sets the pragmas every connection needs.
    init(path: String, busyTimeout: Duration, queryOnly: Bool) throws {
        Self.processSettings
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(handle)
            throw StorageError.io(message: "\(message) (\(path))")
        }
        self.handle = handle
        sqlite3_extended_result_codes(handle, 1)
        let milliseconds = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
        try execute(script: "PRAGMA foreign_keys = ON")
        if queryOnly {
            try execute(script: "PRAGMA query_only = ON")
        }
        sqlite3_progress_handler(handle, Self.instructionsBetweenLooks, { context in
            Unmanaged<SQLiteConnection>.fromOpaque(context!).takeUnretainedValue().look() ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    // MARK: Running SQL

    let dialect = Dialect.sqlite

    func execute(script: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, script, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw error(code: sqlite3_extended_errcode(handle), message: text, sql: script)
        }
    }

    func execute(_ sql: SQL) throws -> Int {
        let statement = try prepared(sql.text)
        defer { statement.finish() }
        try statement.bind(sql.bindings)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    func execute(_ text: String, forEachOf values: some Sequence<[SQLiteValue]>) throws {
        let statement = try prepared(text)
        defer { statement.finish() }
        // A batch of rows is milliseconds of a core, and an insert is few instructions for its
        // work (B-tree pages, indexes): counted by instructions it would give way too seldom.
        var rows = GiveWay(every: Self.rowsBetweenYields)
        defer { rowsGivenWay += rows.times }
        for row in values {
            try statement.bind(row)
            while try statement.step() {}
            rows.step()
        }
    }

    func rows(_ sql: SQL) throws -> [Row] {
        let statement = try prepared(sql.text)
        defer { statement.finish() }
        try statement.bind(sql.bindings)
        var rows: [Row] = []
        while try statement.step() {
            rows.append(statement.currentRow())
        }
        return rows
    }

    func row(_ sql: SQL) throws -> Row? {
        let statement = try prepared(sql.text)
        defer { statement.finish() }
        try statement.bind(sql.bindings)
        return try statement.step() ? statement.currentRow() : nil
    }

    // MARK: Internals

    func prepared(_ sql: String) throws -> Statement {
        if let cached = statements[sql] {
            return cached
        }
        if statements.count >= statementCacheLimit {
            statements.removeAll()
        }
        let statement = try Statement(connection: self, sql: sql)
        statementsPrepared += 1
        statements[sql] = statement
        return statement
    }

    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The error of the call that just failed on this connection.
    func lastError(sql: String? = nil) -> StorageError {
        error(code: sqlite3_extended_errcode(handle), message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// Maps an extended result code to the typed error callers handle.
    func error(code: Int32, message: String, sql: String? = nil) -> StorageError {
        let primary = code & 0xFF
        let detail = message.components(separatedBy: "failed: ").dropFirst().first ?? message
        switch code {
        case 2067, 1555:  // SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY
            return .uniqueViolation(constraint: detail)
        case 787:  // SQLITE_CONSTRAINT_FOREIGNKEY
            return .foreignKeyViolation(constraint: "foreign key")
        default:
            break
        }
        // Some paths (statement-level checks) report the primary code only; the message is stable.
        if primary == SQLITE_CONSTRAINT && message.hasPrefix("FOREIGN KEY") {
            return .foreignKeyViolation(constraint: "foreign key")
        }
        switch primary {
        case SQLITE_CONSTRAINT: return .constraintViolation(constraint: detail)
        case SQLITE_BUSY, SQLITE_LOCKED: return .busy
        case SQLITE_CORRUPT, SQLITE_NOTADB: return .corrupt(message: message, sql: sql)
        case SQLITE_FULL: return .full(sql: sql)
        case SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM: return .io(message: message, sql: sql)
        default: return .sqlite(code: code, message: message, sql: sql)
        }
    }
}
