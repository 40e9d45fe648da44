/// Everything the storage layer can report, typed so callers map each case once
/// (a unique violation becomes a form message, `busy` a retry, `corrupt` a 500).
///
/// Messages never contain bound values: they may be passwords or personal data. Errors that
/// are faults rather than rules (`corrupt`, `io`, `sqlite`) carry the SQL text that failed, with
/// `?` where values were bound, so a log line says which statement it was.
public enum StorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No row with that primary key in that table.
    case notFound(table: String)
    /// A UNIQUE or PRIMARY KEY constraint failed; `constraint` names the columns, e.g. `users.email`.
    case uniqueViolation(constraint: String)
    /// A FOREIGN KEY constraint failed (SQLite does not say which one).
    case foreignKeyViolation(constraint: String)
    /// A NOT NULL or CHECK constraint failed.
    case constraintViolation(constraint: String)
    /// An optimistic update found a different row version than expected.
    case versionConflict(table: String, expected: Int, actual: Int)
    /// The database stayed locked by another connection past the busy timeout.
    case busy
    /// The file is not a database or is damaged.
    case corrupt(message: String, sql: String? = nil)
    /// The disk (or the database's size limit) has no room for what a write adds. The
    /// transaction rolled back; reads go on working, and a write that frees room may succeed.
    case full(sql: String? = nil)
    /// The file could not be opened, read or written (permissions, missing folder).
    case io(message: String, sql: String? = nil)
    /// The database server cannot be reached now: it is down, restarting, shutting down or
    /// starting up, or the connection to it was lost. Nothing of the failed transaction was
    /// saved; the next statement connects again, so trying again later may succeed. The
    /// message names the server without its password.
    case unavailable(message: String, sql: String? = nil)
    /// A migration failed; the database was left as it was before start-up.
    case migrationFailed(version: Int, name: String, message: String)
    /// A value could not be turned into, or read back from, a column.
    case conversion(column: String, message: String)
    /// A bound text holds the NUL character, which PostgreSQL cannot store: refused on both
    /// backends before anything is sent, so the same input meets the same answer.
    case textWithNUL
    /// A query built from code was malformed (a bad column name, say).
    case invalidQuery(String)
    /// Any other SQLite failure, with its extended result code.
    case sqlite(code: Int32, message: String, sql: String? = nil)
    /// Any other PostgreSQL failure, with its SQLSTATE.
    case postgres(state: String, message: String, sql: String? = nil)
    /// `--db` names no database this console can use (a malformed URL, an option not
    /// supported); the message says what to change.
    case invalidLocation(String)
    /// A blocking read or write was started inside another's closure, where it would wait
    /// for itself forever.
    case nestedAccess

    public var description: String {
        switch self {
        case .notFound(let table): "no such row in \(table)"
        case .uniqueViolation(let constraint): "unique constraint failed: \(constraint)"
        case .foreignKeyViolation(let constraint): "foreign key constraint failed: \(constraint)"
        case .constraintViolation(let constraint): "constraint failed: \(constraint)"
        case .versionConflict(let table, let expected, let actual):
            "\(table) changed since it was read (expected version \(expected), found \(actual))"
        case .busy: "database is busy"
        case .corrupt(let message, let sql): "database is corrupt: \(message)" + Self.statement(sql)
        case .full(let sql): "database or disk is full" + Self.statement(sql)
        case .io(let message, let sql): "database I/O error: \(message)" + Self.statement(sql)
        case .unavailable(let message, let sql): message + Self.statement(sql)
        case .migrationFailed(let version, let name, let message): "migration \(version) (\(name)) failed: \(message)"
        case .conversion(let column, let message): "column \(column): \(message)"
        case .textWithNUL: "a text holds the NUL character, which the database cannot store"
        case .invalidQuery(let message): "invalid query: \(message)"
        case .sqlite(let code, let message, let sql): "SQLite error \(code): \(message)" + Self.statement(sql)
        case .postgres(let state, let message, let sql): "PostgreSQL error \(state): \(message)" + Self.statement(sql)
        case .invalidLocation(let message): message
        case .nestedAccess: "a database read or write was started inside another one"
        }
    }

    private static func statement(_ sql: String?) -> String {
        sql.map { " in: \($0.count > 500 ? String($0.prefix(500)) + "…" : $0)" } ?? ""
    }
}
