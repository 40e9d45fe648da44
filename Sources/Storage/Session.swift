/// What a database engine's connection does for `Connection`: run SQL with bound values and say
/// whether a transaction is open. One implementation per backend (`SQLiteConnection`,
/// `PostgresSession`); everything above it — records, queries, transactions, migrations — is
/// written once.
protocol Session: AnyObject {
    var dialect: Dialect { get }

    /// Runs one or more statements without bindings (schema scripts, pragmas).
    func execute(script: String) throws

    /// Runs one statement with its bindings and returns how many rows it changed.
    func execute(_ sql: SQL) throws -> Int

    /// Runs one statement once for each row of `values`.
    func execute(_ text: String, forEachOf values: some Sequence<[SQLiteValue]>) throws

    func rows(_ sql: SQL) throws -> [Row]

    func row(_ sql: SQL) throws -> Row?

    /// Several queries' rows, in their order (`Connection.rows(together:)`).
    func rows(together sqls: [SQL]) throws -> [[Row]]

    var isInTransaction: Bool { get }

    /// Statements compiled so far (see `Database.statementsPrepared`).
    var statementsPrepared: Int { get }
}

extension Session {
    /// One after another: in-process SQLite has no round trip to save.
    func rows(together sqls: [SQL]) throws -> [[Row]] {
        try sqls.map(rows)
    }
}
