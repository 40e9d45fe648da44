import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The SELECTs one connection has prepared, by their numbered text. An unnamed statement is
/// parsed and planned by the server every time it runs; for the small queries a page makes,
/// that planning was most of the server's work (a device page: 1.9 of its 2.9 ms). A prepared
/// statement is planned once per connection and then runs on its cached plan.
///
/// postgres-nio prepares without declared parameter types and sends a prepared statement's
/// values in binary, so the types the server inferred are read back once
/// (`pg_prepared_statements`) and each value is encoded for its parameter. Where a value would
/// not be read exactly as its text would be — a parameter type not handled here, text where a
/// number is wanted — the statement runs unnamed as before, and the server reads the text with
/// the same result or the same error.
final class PreparedSelects {
    private enum Entry {
        case prepared(PreparedQuery, [ParameterType])
        case unpreparable
    }

    /// Prepared statements live as long as their connection; past this many the oldest
    /// distinct texts are rare enough (paged searches, ad-hoc filters) to start afresh.
    static let limit = 256
    private var entries: [String: Entry] = [:]

    /// Whether `statement` is a SELECT worth preparing.
    static func isCandidate(_ statement: String) -> Bool {
        statement.drop { $0.isWhitespace }.prefix(6).uppercased() == "SELECT"
    }

    /// Forgets every statement: for a new connection, which has none of them.
    func reset() {
        entries.removeAll()
    }

    /// The request that runs `statement` with `values` as a prepared statement, preparing it
    /// first if this connection has not; nil when it must run unnamed.
    func request(_ statement: String, _ values: [SQLiteValue], on connection: PostgresConnection,
                 logger: Logger) throws -> (@Sendable (PostgresConnection) -> EventLoopFuture<[PostgresRow]>)? {
        let entry = try entries[statement] ?? prepare(statement, on: connection, logger: logger)
        guard case .prepared(let query, let types) = entry, types.count == values.count else { return nil }
        var data: [PostgresData] = []
        data.reserveCapacity(values.count)
        for (value, type) in zip(values, types) {
            guard let encoded = type.encode(value) else { return nil }
            data.append(encoded)
        }
        return { [data] _ in query.execute(data) }
    }

    /// Drops `statement` after the server refused its cached plan (a table it reads changed
    /// shape), so the next run prepares it again.
    func forget(_ statement: String, on connection: PostgresConnection) {
        if case .prepared(let query, _)? = entries.removeValue(forKey: statement) { deallocate(query, on: connection) }
    }

    /// Frees the server's copy; nothing waits for it.
    private func deallocate(_ query: PreparedQuery, on connection: PostgresConnection) {
        _ = connection.whileOpen { _ in query.deallocate() }
    }

    private func prepare(_ statement: String, on connection: PostgresConnection, logger: Logger) throws -> Entry {
        if entries.count >= Self.limit {
            for case .prepared(let query, _) in entries.values { deallocate(query, on: connection) }
            entries.removeAll()
        }
        let query = try connection.whileOpen { $0.prepare(query: statement) }.wait()
        // The view lists this connection's statements only; the text is the one just prepared.
        let named = PostgresQuery(unsafeSQL: """
            SELECT type::text FROM unnest((SELECT parameter_types FROM pg_prepared_statements WHERE statement = $1 LIMIT 1))
            WITH ORDINALITY AS parameter(type, position) ORDER BY position
            """, binds: {
            var binds = PostgresBindings()
            binds.append(statement)
            return binds
        }())
        let names = try connection.whileOpen { [logger] in $0.query(named, logger: logger) }.wait().rows.map { row in
            guard case .text(let name)? = try row.first.map(PostgresValues.value(of:)) else { return "" }
            return name
        }
        let types = names.compactMap(ParameterType.init(rawValue:))
        let entry: Entry = types.count == names.count ? .prepared(query, types) : .unpreparable
        if case .unpreparable = entry { deallocate(query, on: connection) }
        entries[statement] = entry
        return entry
    }
}

/// A parameter's type as the server inferred it, by `regtype` name, and how our values are
/// sent in its binary form.
enum ParameterType: String {
    case smallint, integer, bigint
    case real, double = "double precision"
    case text, varchar = "character varying", name
    case boolean
    case timestamptz = "timestamp with time zone"
    case bytea, json, jsonb

    /// `value` in this type's binary form, or nil when the server should read it as text.
    func encode(_ value: SQLiteValue) -> PostgresData? {
        var buffer = ByteBuffer()
        switch (self, value) {
        case (_, .null):
            return PostgresData(type: .null, formatCode: .binary, value: nil)
        case (.smallint, .integer(let number)):
            guard let small = Int16(exactly: number) else { return nil }
            buffer.writeInteger(small)
        case (.integer, .integer(let number)):
            guard let integer = Int32(exactly: number) else { return nil }
            buffer.writeInteger(integer)
        case (.bigint, .integer(let number)):
            buffer.writeInteger(number)
        case (.boolean, .integer(let number)):
            buffer.writeInteger(UInt8(number != 0 ? 1 : 0))
        case (.real, .real(let number)):
            buffer.writeInteger(Float(number).bitPattern)
        case (.double, .real(let number)):
            buffer.writeInteger(number.bitPattern)
        case (.double, .integer(let number)):
            buffer.writeInteger(Double(number).bitPattern)
        case (.text, .text(let text)), (.varchar, .text(let text)), (.name, .text(let text)), (.json, .text(let text)):
            buffer.writeString(text)
        case (.text, .integer(let number)), (.varchar, .integer(let number)):
            buffer.writeString(String(number))
        case (.jsonb, .text(let text)):
            buffer.writeInteger(UInt8(1))  // the binary format's version
            buffer.writeString(text)
        case (.bytea, .blob(let bytes)):
            buffer.writeBytes(bytes)
        case (.timestamptz, .date(let date)):
            // Microseconds from 2000-01-01 UTC, as the text form writes them; the extremes are
            // PostgreSQL's -infinity and infinity, sent for the same sentinels the text sends so.
            if let microseconds = PostgresValues.microsecondsSince1970(date) {
                buffer.writeInteger(microseconds - PostgresValues.microsecondsBefore2000)
            } else {
                buffer.writeInteger(date.timeIntervalSince1970 > 0 ? Int64.max : Int64.min)
            }
        default:
            return nil
        }
        return PostgresData(type: .null, formatCode: .binary, value: buffer)
    }
}
