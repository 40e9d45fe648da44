import Logging
import NIOCore
import PostgresNIO
@testable import Storage
import Testing

/// Requests handed to a PostgreSQL connection that has already closed. The driver drops such a
/// request with its promise never completed, so before they were guarded a caller could wait
/// for ever, and freeing a prepared statement just as the server went away stopped the test
/// process ("leaking promise created at PostgresConnection.swift:299", during a database
/// outage). Each must now fail at once, as a lost connection.
@Suite(.enabled(if: Backend.available.contains(.postgres))) struct ClosedConnectionTests {
    let logger = Logger(label: "closed-connection-tests")

    /// A connection to the test server that has closed, handlers and all.
    func closedConnection() throws -> PostgresConnection {
        guard case .postgres(let server) = try DatabaseLocation(Backend.testServer ?? "") else {
            throw StorageError.invalidLocation("PAYLOAD_CONSOLE_TEST_POSTGRES is not a postgres:// URL")
        }
        let connection = try server.connect(logger: logger).wait()
        try connection.close().wait()
        return connection
    }

    @Test func aStatementOnAClosedConnectionFailsAsALostConnection() throws {
        let connection = try closedConnection()
        #expect(throws: ClosedBeforeSending.self) {
            try connection.whileOpen { [logger] in $0.query("SELECT 1", logger: logger) }.wait()
        }
        let failure = connection.whileOpen { [logger] in $0.query("SELECT 1", logger: logger) }
        let error = try #require(throws: (any Error).self) { try failure.wait() }
        #expect(PostgresErrors.isConnectionLost(error))
        guard case .unavailable = PostgresErrors.storageError(error, sql: "SELECT 1") else {
            Issue.record("a request that never left is unavailable, not \(PostgresErrors.storageError(error, sql: nil))")
            return
        }
    }

    @Test func forgettingAPreparedStatementAfterTheConnectionClosedSendsNothing() throws {
        guard case .postgres(let server) = try DatabaseLocation(Backend.testServer ?? "") else { return }
        let connection = try server.connect(logger: logger).wait()
        // The driver insists, in a debug build, that a connection is closed before it is released.
        defer { _ = try? connection.close().wait() }
        let selects = PreparedSelects()
        let statement = "SELECT $1::bigint + 1"
        let request = try #require(try selects.request(statement, [.integer(41)], on: connection, logger: logger))
        let rows = try connection.sendAndWait([request], after: [])[0].get()
        #expect(rows.count == 1)

        try connection.close().wait()
        // Before the guard this dropped the DEALLOCATE's promise, and the debug build stopped here.
        selects.forget(statement, on: connection)
        #expect(throws: ClosedBeforeSending.self) {
            try connection.whileOpen { $0.prepare(query: "SELECT 2") }.wait()
        }
    }

    /// Requests sent in one round on a closed connection each fail as never sent, and so
    /// does a statement sent earlier that the round waits for; nothing waits for ever.
    @Test func aRoundOnAClosedConnectionFailsEachRequestInsteadOfWaitingForEver() throws {
        let connection = try closedConnection()
        let earlier = connection.whileOpen { [logger] in $0.query("SELECT 1", logger: logger) }
        let results = connection.sendAndWait([{ [logger] in $0.query("SELECT 2", logger: logger) }, { [logger] in $0.query("SELECT 3", logger: logger) }],
                                             after: [earlier])
        #expect(results.count == 3)
        for result in results {
            #expect(throws: ClosedBeforeSending.self) { try result.get() }
        }
    }

    @Test func aCopyOnAClosedConnectionFailsInsteadOfWaitingForEver() throws {
        let connection = try closedConnection()
        var rows = ByteBuffer()
        rows.writeString("1\n")
        #expect(throws: ClosedBeforeSending.self) {
            try connection.copy(rows, into: "nowhere", columns: ["id"], logger: logger).wait()
        }
    }
}
