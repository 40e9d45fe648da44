import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One PostgreSQL connection, used the way `Database` uses an SQLite connection: from one
/// worker thread, one statement after another, each call returning when the server has
/// answered. The calling thread waits on postgres-nio's future while the driver's event loop
/// does the I/O; that thread is the worker's own (never Swift's cooperative pool), so the
/// ORM's synchronous closures — records, queries, transactions — run unchanged on this backend.
///
/// A connection the server closed (a restart, a network drop) is opened afresh by the next
/// statement that starts outside a transaction; a transaction it was in is lost, and its
/// statement fails with `unavailable`, as does every statement while the server cannot be reached.
final class PostgresSession: Session {
    let dialect = Dialect.postgres
    private let server: PostgresServer
    private let readOnly: Bool
    let logger: Logger
    private(set) var connection: PostgresConnection?
    /// Our texts with `?` numbered as `$1, $2, …`, so each is rewritten once.
    private var numbered: [String: String] = [:]
    private(set) var statementsPrepared = 0
    var isInTransaction = false
    /// Called after each statement outside a transaction that changed rows (see
    /// `ChangeTracker`); a transaction's changes are read by `PostgresChangeCapture`.
    var onWrite: (() -> Void)?

    init(server: PostgresServer, readOnly: Bool, logger: Logger = Logger(label: "payload-console.postgres")) throws {
        self.server = server
        self.readOnly = readOnly
        self.logger = logger
        try connect()
    }

    deinit {
        closeQuietly()
    }

    // MARK: Session

    func execute(script: String) throws {
        for statement in SQLTextScanner.statements(in: script) {
            _ = try run(statement, [])
        }
    }

    func execute(_ sql: SQL) throws -> Int {
        try run(sql.text, sql.bindings).changed ?? 0
    }

    func rows(_ sql: SQL) throws -> [Row] {
        try rows(of: run(sql.text, sql.bindings, selecting: true))
    }

    /// Every query goes to the server in one round (`roundTrip`): the server answers them one
    /// after another as usual, but the worker thread sleeps and is woken once instead of once
    /// each. On a 2-core machine each wake-up is a thread switch a page pays for in CPU.
    func rows(together sqls: [SQL]) throws -> [[Row]] {
        guard sqls.count > 1, let connection, !connection.isClosed else { return try sqls.map(rows) }
        let opensTransaction = pendingBegin != nil
        do {
            return try answers(to: sqls, on: connection).map(rows(of:))
        } catch let failed as FailedStatement {
            if PostgresErrors.isConnectionLost(failed.error) {
                isInTransaction = false
                // Reads only, and nothing of the transaction had happened: all of it again.
                if opensTransaction {
                    try reconnect(sql: failed.sql)
                    if let begin = lastBegin { _ = try run(begin, []) }
                    return try sqls.map(rows)
                }
            }
            throw PostgresErrors.storageError(failed.error, sql: failed.sql)
        }
    }

    /// A statement of a round that failed, and why.
    private struct FailedStatement: Error {
        let error: any Error
        let sql: String
    }

    /// The answers to `sqls`, sent as one round; throws the first failure in the order the
    /// server met them (after it, a transaction's statements fail only because it did).
    private func answers(to sqls: [SQL], on connection: PostgresConnection) throws -> [Answer] {
        var requests: [Request] = []
        for sql in sqls {
            do {
                requests.append(try request(numberedText(sql.text), sql.bindings, selecting: true, on: connection))
            } catch {
                throw FailedStatement(error: error, sql: sql.text)
            }
        }
        let results: [Result<Answer, any Error>]
        do { results = try roundTrip(requests, on: connection) } catch { throw FailedStatement(error: error, sql: sqls[0].text) }
        var answers: [Answer] = []
        var firstFailure: FailedStatement?
        for ((sql, request), result) in zip(zip(sqls, requests), results) {
            switch result {
            case .success(let answer): answers.append(answer)
            case .failure(let error):
                if !PostgresErrors.isConnectionLost(error) { forgetIfPrepared(request, on: connection) }
                firstFailure = firstFailure ?? FailedStatement(error: error, sql: sql.text)
            }
        }
        if let firstFailure { throw firstFailure }
        return answers
    }

    private func rows(of answer: Answer) throws -> [Row] {
        guard let first = answer.rows.first else { return [] }
        let columns = ColumnIndex(names: first.map(\.columnName), foldingCase: true)
        return try answer.rows.map { Row(columns: columns, values: try PostgresValues.values(of: $0, labelledText: answer.labelledText)) }
    }

    func row(_ sql: SQL) throws -> Row? {
        try rows(sql).first
    }

    // MARK: Running

    /// What the server answered to one statement.
    struct Answer: Sendable {
        var rows: [PostgresRow] = []
        var changed: Int? = nil
        /// The driver labels a prepared statement's cells with the formats the server
        /// described before binding (text), while they arrive in binary as asked.
        var labelledText = false
    }

    /// A transaction's BEGIN, not yet sent: it goes to the server in one round with the
    /// transaction's first statement (`roundTrip`), and a read-only transaction with no
    /// statement at all sends neither it nor its end.
    private(set) var pendingBegin: Request?
    /// A read-only COMMIT (or any ROLLBACK) sent but not yet waited for: it ends the
    /// transaction on the server at once (a snapshot held open would keep old rows from being
    /// cleaned up), and is waited for with the session's next round.
    private(set) var unawaited: [(text: String, answer: EventLoopFuture<Answer>)] = []
    /// Whether the open transaction began READ ONLY: its COMMIT cannot fail for any reason a
    /// caller could act on, so nobody waits for it.
    private var inReadOnlyTransaction = false
    private var lastBegin: String?
    private let preparedSelects = PreparedSelects()
    /// Bulk inserts' texts as COPYs (or nil), each read once (`copyInsert`).
    var copies: [String: CopyInsert?] = [:]

    /// Runs one statement; `selecting` asks for rows, and a SELECT then runs prepared.
    func run(_ text: String, _ values: [SQLiteValue], retried: Bool = false, selecting: Bool = false) throws -> Answer {
        let statement = numberedText(text)
        let kind = StatementKind(statement)
        // The transaction's first statement: nothing of it has happened yet, so a connection
        // found dead now can be replaced and the BEGIN sent again.
        let opensTransaction = pendingBegin != nil
        guard let connection, !connection.isClosed else {
            unawaited.removeAll()
            pendingBegin = nil
            if isInTransaction, !(opensTransaction && !retried) {
                isInTransaction = false
                throw StorageError.unavailable(message: "the connection to PostgreSQL was lost during a transaction; nothing of it was saved", sql: text)
            }
            return try runOnNewConnection(text, values, reopening: opensTransaction, selecting: selecting)
        }
        switch kind {
        case .begin:
            lastBegin = text
            pendingBegin = try request(statement, values, selecting: false, on: connection)
            isInTransaction = true
            inReadOnlyTransaction = readOnly || statement.uppercased().contains("READ ONLY")
            return Answer()
        case .end where inReadOnlyTransaction || statement.uppercased().hasPrefix("ROLLBACK"):
            isInTransaction = false
            // Nothing was sent since the BEGIN, which was not sent either: nothing to end.
            if pendingBegin != nil {
                pendingBegin = nil
                return Answer()
            }
            let end = try request(statement, values, selecting: false, on: connection)
            unawaited.append((text, connection.whileOpen(end.send)))
            return Answer()
        default:
            break
        }
        // A COMMIT or ROLLBACK ends the transaction even when it fails.
        defer { if kind == .end { isInTransaction = false } }
        var sent: Request?
        do {
            sent = try request(statement, values, selecting: selecting, on: connection)
            let answer = try roundTrip([sent!], on: connection)[0].get()
            if kind == .write, !isInTransaction, answer.changed ?? 1 > 0 { onWrite?() }
            return answer
        } catch {
            if PostgresErrors.isConnectionLost(error) {
                isInTransaction = false
                // Any other statement may have had its effect before the connection went, so
                // it is not repeated.
                if opensTransaction, !retried { return try runOnNewConnection(text, values, reopening: true, selecting: selecting) }
            } else if let sent {
                forgetIfPrepared(sent, on: connection)
            }
            throw PostgresErrors.storageError(error, sql: text)
        }
    }

    /// A statement ready to go to the server, in a round of its own or with others.
    struct Request {
        let statement: String
        let wasPrepared: Bool
        let send: @Sendable (PostgresConnection) -> EventLoopFuture<Answer>
    }

    /// `statement` with `values`, as a prepared statement when it is a SELECT that can be
    /// (preparing it is a round trip of its own, once per connection).
    private func request(_ statement: String, _ values: [SQLiteValue], selecting: Bool, on connection: PostgresConnection) throws -> Request {
        if selecting, PreparedSelects.isCandidate(statement),
           let prepared = try preparedSelects.request(statement, values, on: connection, logger: logger) {
            return Request(statement: statement, wasPrepared: true) { prepared($0).map { Answer(rows: $0, labelledText: true) } }
        }
        let query = PostgresQuery(unsafeSQL: statement, binds: PostgresValues.bindings(values))
        return Request(statement: statement, wasPrepared: false) { [logger] in
            $0.query(query, logger: logger).map { Answer(rows: $0.rows, changed: $0.metadata.rows) }
        }
    }

    /// Sends `requests`, after the transaction's BEGIN if it has not gone yet, and waits once
    /// for their answers and for the statements sent before them (`unawaited`); returns
    /// `requests`' answers in order. A BEGIN that failed throws, as the driver's error (the
    /// caller tells a lost connection by it); a read-only COMMIT or a ROLLBACK that failed
    /// changed nothing a caller could act on (a lost connection shows in the statement itself).
    func roundTrip(_ requests: [Request], on connection: PostgresConnection) throws -> [Result<Answer, any Error>] {
        let begin = pendingBegin
        let earlier = unawaited
        pendingBegin = nil
        unawaited.removeAll()
        var results = connection.sendAndWait((begin.map { [$0.send] } ?? []) + requests.map(\.send), after: earlier.map(\.answer))[...]
        for (text, _) in earlier {
            if case .failure(let error) = results.removeFirst() { logger.debug("PostgreSQL: \(text) failed: \(error)") }
        }
        if begin != nil, case .failure(let error) = results.removeFirst() {
            isInTransaction = false
            throw error
        }
        return Array(results)
    }

    /// After a prepared statement failed other than by a lost connection: most often a table it
    /// reads changed shape, so it is prepared afresh next time.
    private func forgetIfPrepared(_ sent: Request, on connection: PostgresConnection) {
        if sent.wasPrepared { preparedSelects.forget(sent.statement, on: connection) }
    }

    /// Runs `text` on a connection opened afresh, after the transaction's BEGIN when
    /// `reopening` one whose BEGIN went down with the old connection.
    private func runOnNewConnection(_ text: String, _ values: [SQLiteValue], reopening: Bool, selecting: Bool) throws -> Answer {
        try reconnect(sql: text)
        if reopening, let begin = lastBegin { _ = try run(begin, []) }
        return try run(text, values, retried: true, selecting: selecting)
    }

    private func numberedText(_ text: String) -> String {
        if let known = numbered[text] { return known }
        if numbered.count >= 512 { numbered.removeAll() }
        let statement = SQLTextScanner.postgresText(text)
        numbered[text] = statement
        statementsPrepared += 1
        return statement
    }

    private func reconnect(sql: String?) throws {
        closeQuietly()
        connection = nil
        do {
            try connect()
        } catch {
            throw PostgresErrors.storageError(error, sql: sql)
        }
    }

    private func connect() throws {
        let opened: PostgresConnection
        do {
            opened = try server.connect(logger: logger).wait()
        } catch {
            throw PostgresErrors.connectionError(error, server: server)
        }
        connection = opened
        isInTransaction = false
        unawaited.removeAll()
        pendingBegin = nil
        preparedSelects.reset()
        // Times and dates are read and written in UTC, whatever the server's own zone.
        _ = try run("SET TIME ZONE 'UTC'", [])
        if readOnly { _ = try run("SET default_transaction_read_only = on", []) }
    }

    /// Lets the connection go without waiting for the server to acknowledge; the driver's
    /// connection must outlive its closing, so the callback holds it until then.
    private func closeQuietly() {
        guard let closing = connection else { return }
        closing.close().whenComplete { _ in withExtendedLifetime(closing) {} }
    }
}
