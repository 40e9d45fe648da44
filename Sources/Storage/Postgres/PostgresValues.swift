import Foundation
import NIOCore
import PostgresNIO

/// Our values as PostgreSQL parameters, and PostgreSQL's results as our values.
///
/// Parameters go as text with no declared type, so the server reads each as the type its
/// place in the statement asks for — the way a typed literal would be read: `1` into an
/// integer column, `{"a":1}` into `jsonb`, `2026-11-24 10:00:00+00` into `timestamptz`. Only
/// bytes go typed (`bytea`, binary), since text cannot carry them. Results come back in binary
/// and are read by their column's type into the storage classes the ORM decodes, as SQLite
/// would hand them over: dates as REAL seconds, booleans as 0/1, JSON as text.
enum PostgresValues {
    static func bindings(_ values: [SQLiteValue]) -> PostgresBindings {
        var bindings = PostgresBindings(capacity: values.count)
        for value in values {
            switch value {
            case .null: bindings.appendNull()
            case .integer(let number): bindings.append(Untyped(text: String(number)))
            case .real(let number): bindings.append(Untyped(text: realText(number)))
            case .text(let text): bindings.append(Untyped(text: text))
            case .blob(let bytes): bindings.append(ByteBuffer(bytes: bytes))
            case .date(let date): bindings.append(Untyped(text: timestampText(date)))
            }
        }
        return bindings
    }

    /// One result row as values in column order.
    /// `labelledText`: the cells say text but hold binary (see `PostgresSession.Answer`).
    static func values(of row: PostgresRow, labelledText: Bool = false) throws -> [SQLiteValue] {
        guard labelledText else { return try row.map(value(of:)) }
        return try row.map { cell in
            var binary = cell
            binary.format = .binary
            return try value(of: binary)
        }
    }

    static func value(of cell: PostgresCell) throws -> SQLiteValue {
        guard var bytes = cell.bytes else { return .null }
        switch cell.dataType {
        case .int2, .int4, .int8, .oid:
            return .integer(try cell.decode(Int64.self))
        case .float4, .float8:
            return .real(try cell.decode(Double.self))
        case .numeric:
            // `sum` of a bigint is numeric: whole numbers stay integers, as in SQLite.
            let number = try cell.decode(Decimal.self)
            let double = NSDecimalNumber(decimal: number).doubleValue
            if double.rounded() == double, abs(double) < 9.2e18 { return .integer(Int64(double)) }
            return .real(double)
        case .bool:
            return .integer(try cell.decode(Bool.self) ? 1 : 0)
        case .bytea:
            return .blob(bytes.readBytes(length: bytes.readableBytes) ?? [])
        case .timestamptz, .timestamp:
            // Binary timestamps count microseconds from 2000-01-01 UTC.
            guard let microseconds = bytes.readInteger(as: Int64.self) else { return .null }
            return .real(Double(microseconds) / 1_000_000 + 946_684_800)
        case .jsonb where cell.format == .binary:
            _ = bytes.readInteger(as: UInt8.self)  // the format's version byte
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        case .uuid:
            return .text(try cell.decode(UUID.self).uuidString)
        case .text, .varchar, .bpchar, .name, .json, .jsonb, .unknown:
            return .text(bytes.readString(length: bytes.readableBytes) ?? "")
        default:
            if cell.format == .text { return .text(bytes.readString(length: bytes.readableBytes) ?? "") }
            return .text(try cell.decode(String.self))
        }
    }

    /// A REAL as text PostgreSQL reads back as the same double (Swift prints the shortest
    /// text that round-trips; PostgreSQL spells the infinities its own way).
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "NaN" }
        if number.isInfinite { return number > 0 ? "Infinity" : "-Infinity" }
        return "\(number)"
    }

    /// `2026-11-24 10:00:00.123456+00`: the microseconds `timestamptz` keeps, in UTC.
    static func timestampText(_ date: Date) -> String {
        // `Date.distantPast` and the like: PostgreSQL's calendar has no year 0, and such a
        // moment means "before anything" (or after) anyway.
        if date.timeIntervalSince1970 < -2_208_988_800 { return "-infinity" }  // 1900
        if date.timeIntervalSince1970 > 253_402_300_799 { return "infinity" }  // 9999-12-31
        let microseconds = (date.timeIntervalSince1970 * 1_000_000).rounded()
        var seconds = Int(floor(microseconds / 1_000_000))
        let fraction = Int(microseconds - Double(seconds) * 1_000_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let micro = String(fraction)
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))."
            + String(repeating: "0", count: 6 - micro.count) + micro + "+00"
    }

    /// Text with no declared type (OID 0): the server infers it from where it is used.
    private struct Untyped: PostgresDynamicTypeEncodable {
        let text: String
        var psqlType: PostgresDataType { .null }
        var psqlFormat: PostgresFormat { .text }

        func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
            byteBuffer.writeString(text)
        }
    }
}
