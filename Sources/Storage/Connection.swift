/// A connection to the database, handed to one closure at a time by `Database`: the same calls
/// whichever backend is behind it (`dialect` says which, for the few queries that differ).
///
/// A connection is not thread-safe; each lives on a worker thread of its own.
public final class Connection {
    let session: any Session

    init(_ session: any Session) {
        self.session = session
    }

    /// Where the statements of the work running now are counted, if anywhere (`StatementTally`).
    var tally: StatementTally?

    /// The committed changes the database had reported when the running transaction began
    /// (`Database.commitCount`), with the database's tracker: what `TableCache` compares
    /// against before it keeps a value it read in this transaction.
    var commitsAtStart: (tracker: ObjectIdentifier, count: Int)?

    /// The SQL this connection speaks.
    public var dialect: Dialect { session.dialect }

    /// Statements compiled so far on this connection: it stays put when the same SQL runs
    /// again, which is how a test sees that the cache is used.
    public var statementsPrepared: Int { session.statementsPrepared }

    /// How many times this connection's statements gave way to a thread waiting for the core
    /// (`GiveWay`; on SQLite only — on PostgreSQL the server does the work).
    public var timesGivenWay: Int { sqlite?.timesGivenWay ?? 0 }

    /// The SQLite connection beneath, for what only SQLite has (hooks, functions in Swift).
    var sqlite: SQLiteConnection? { session as? SQLiteConnection }

    // MARK: Running SQL

    /// Runs one or more statements without bindings (schema scripts, pragmas).
    public func execute(script: String) throws {
        tally?.countStatement()
        try session.execute(script: script)
    }

    /// Runs one statement with its bindings and returns how many rows it changed.
    @discardableResult
    public func execute(_ sql: SQL) throws -> Int {
        tally?.countStatement()
        try StorableText.check(sql)
        return try session.execute(sql)
    }

    /// Runs one statement once for each row of `values`, binding the row to its `?`s: a bulk
    /// insert on one prepared statement. Built as an `SQL` value per row, the text and its
    /// lookup in the statement cache cost about as much as SQLite's own insert.
    public func execute(_ text: String, forEachOf values: some Sequence<[SQLiteValue]>) throws {
        tally?.countStatement()
        let rows = Array(values)
        for row in rows { try StorableText.check(row) }
        try session.execute(text, forEachOf: rows)
    }

    /// Runs a query and returns every row.
    public func rows(_ sql: SQL) throws -> [Row] {
        tally?.countStatement()
        try StorableText.check(sql)
        return try session.rows(sql)
    }

    /// Runs independent queries and returns each one's rows, in their order: on PostgreSQL
    /// they go to the server together and this thread waits once for all of them (a page's
    /// reads that do not depend on each other); SQLite runs them one after another. A failure
    /// throws as the first failing query would alone.
    public func rows(together sqls: [SQL]) throws -> [[Row]] {
        for sql in sqls {
            tally?.countStatement()
            try StorableText.check(sql)
        }
        return try session.rows(together: sqls)
    }

    /// Runs a query and returns its first row, if any.
    public func row(_ sql: SQL) throws -> Row? {
        tally?.countStatement()
        try StorableText.check(sql)
        return try session.row(sql)
    }

    /// The first column of the first row, e.g. for `SELECT count(*) …`; nil when there is no row
    /// or the value is NULL.
    public func scalar<T: SQLiteValueConvertible>(_ sql: SQL, as type: T.Type = T.self) throws -> T? {
        // An aggregate over no rows (`max(id)` of an empty table) is one row holding NULL.
        guard let row = try row(sql), let value = row.values.first, value != .null else { return nil }
        return try row.first(as: T.self)
    }

    /// Whether a transaction is open: after some errors SQLite rolls the whole transaction
    /// back by itself (a full disk, say), and what runs next would run outside it; PostgreSQL
    /// keeps a failed transaction open, refusing everything but a rollback.
    public var isInTransaction: Bool { session.isInTransaction }

    /// Makes every other write that locks `name` wait until this transaction ends, in this
    /// console and every other console on the same database: for a rule that reads before it
    /// writes (the last admin, the sign-in throttle, an app's log cap). SQLite needs nothing:
    /// its writes already run one at a time per file, across processes too. On PostgreSQL,
    /// where writers run side by side, it is an advisory lock held until COMMIT or ROLLBACK.
    public func lock(_ name: String) throws {
        guard dialect == .postgres else { return }
        try execute("SELECT pg_advisory_xact_lock(hashtextextended(\(name), 0))")
    }

    /// Runs `body` inside a savepoint: nested work that rolls back alone when it throws.
    public func savepoint<T>(_ body: () throws -> T) throws -> T {
        try execute(script: "SAVEPOINT nested")
        do {
            let result = try body()
            try execute(script: "RELEASE nested")
            return result
        } catch {
            try? execute(script: "ROLLBACK TO nested; RELEASE nested")
            throw error
        }
    }
}
