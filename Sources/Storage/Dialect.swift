/// Which SQL a connection speaks. Query files keep one text wherever SQLite and PostgreSQL
/// agree (the ORM writes `?` placeholders, `RETURNING`, `ON CONFLICT`, `TRUE`/`FALSE` for
/// both); where they differ, the text is chosen by dialect in the query layer:
///
///     let since: SQL = connection.dialect == .sqlite ? "…" : "…"
public enum Dialect: String, Sendable {
    /// An embedded SQLite file: the default.
    case sqlite
    /// A PostgreSQL server.
    case postgres

    /// The statement that starts a transaction that will write: SQLite takes its write lock at
    /// once (`IMMEDIATE`), so a transaction that reads first cannot deadlock with another
    /// writer; PostgreSQL locks row by row.
    var beginWrite: String {
        switch self {
        case .sqlite: "BEGIN IMMEDIATE"
        case .postgres: "BEGIN"
        }
    }

    /// `column` compared and ordered without regard to case, as SQLite's NOCASE does; on
    /// PostgreSQL, indexes for it are on `lower(column)`.
    public func caseless(_ column: String) -> String {
        switch self {
        case .sqlite: "\(column) COLLATE NOCASE"
        case .postgres: "lower(\(column))"
        }
    }

    /// An empty byte string, for a query that leaves a blob column's bytes out.
    public var emptyBytes: String {
        switch self {
        case .sqlite: "x''"
        case .postgres: "''::bytea"
        }
    }

    /// The statement that starts a read: one snapshot for all its statements. SQLite's
    /// transactions are snapshots already; PostgreSQL's default takes a new one per statement.
    /// Whether `haystack` (a text or JSON column) holds `needle` anywhere in its text.
    public func contains(_ haystack: String, _ needle: String) -> String {
        switch self {
        case .sqlite: "instr(\(haystack), \(needle)) > 0"
        case .postgres: "strpos(\(haystack)::text, \(needle)) > 0"
        }
    }

    var beginRead: String {
        switch self {
        case .sqlite: "BEGIN"
        case .postgres: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
        }
    }
}
