import NIOCore
import PostgresNIO

/// Many rows into one table: an INSERT of plain parameters as one COPY, any other
/// `INSERT … VALUES (…)` as statements of many rows each.
extension PostgresSession {
    /// An INSERT of plain parameters goes as one COPY (`CopyInsert`); another
    /// `INSERT … VALUES (…)` as one statement of up to `rowsPerStatement` rows: a round trip per
    /// row made a 500-line upload cost 500 waits on the server.
    func execute(_ text: String, forEachOf values: some Sequence<[SQLiteValue]>) throws {
        if let copy = copyInsert(text) {
            try runCopy(copy, rows: values, sql: text)
            return
        }
        guard let insert = MultiRowInsert(text) else {
            for row in values { _ = try run(text, row) }
            return
        }
        var group: [SQLiteValue] = []
        var rows = 0
        for row in values {
            group += row
            rows += 1
            if rows == MultiRowInsert.rowsPerStatement {
                _ = try run(insert.text(rows: rows), group)
                group.removeAll(keepingCapacity: true)
                rows = 0
            }
        }
        if rows > 0 { _ = try run(insert.text(rows: rows), group) }
    }

    /// Sends `rows` as one COPY. The transaction's BEGIN is settled first (by a statement
    /// that can be repeated on a new connection), since a COPY that fails part-way is not.
    private func runCopy(_ copy: CopyInsert, rows: some Sequence<[SQLiteValue]>, sql: String) throws {
        var buffer = ByteBuffer()
        for row in rows { try copy.append(row, to: &buffer) }
        guard buffer.readableBytes > 0 else { return }
        if connection?.isClosed != false || pendingBegin != nil {
            _ = try run("SELECT 1", [])
        }
        guard let connection else { throw StorageError.unavailable(message: "no connection to PostgreSQL", sql: sql) }
        if !unawaited.isEmpty { _ = try roundTrip([], on: connection) }
        do {
            try connection.copy(buffer, into: copy.table, columns: copy.columns, logger: logger).wait()
        } catch {
            if PostgresErrors.isConnectionLost(error) { isInTransaction = false }
            throw PostgresErrors.storageError(error, sql: sql)
        }
        if !isInTransaction { onWrite?() }
    }

    /// Bulk inserts' texts as COPYs (or nil), each read once: a log upload's batch otherwise
    /// parsed the same INSERT every time.
    private func copyInsert(_ text: String) -> CopyInsert? {
        if let known = copies[text] { return known }
        if copies.count >= 64 { copies.removeAll() }
        let copy = CopyInsert(text)
        copies[text] = copy
        return copy
    }
}
