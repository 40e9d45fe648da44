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
        String(unsafeUninitializedCapacity: longestTimestamp) { writeTimestamp(date, into: UnsafeMutableRawBufferPointer($0)) }
    }

    /// Appends `timestampText(date)`'s bytes: a COPY of uploaded log lines writes two a line.
    static func appendTimestamp(_ date: Date, to buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: longestTimestamp) { writeTimestamp(date, into: $0) }
    }

    private static let longestTimestamp = 29

    /// Writes the timestamp's text into `bytes` (at least `longestTimestamp` of them) and
    /// returns how many it wrote, the date worked out from the day number (`CivilDate`): built
    /// with `gmtime_r` and interpolated Strings, this was a tenth of the writer's CPU per
    /// uploaded line.
    private static func writeTimestamp(_ date: Date, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        // `Date.distantPast` and the like: PostgreSQL's calendar has no year 0, and such a
        // moment means "before anything" (or after) anyway.
        if date.timeIntervalSince1970 < -2_208_988_800 { return write("-infinity", into: bytes) }  // 1900
        if date.timeIntervalSince1970 > 253_402_300_799 { return write("infinity", into: bytes) }  // 9999-12-31
        let microseconds = Int64((date.timeIntervalSince1970 * 1_000_000).rounded())
        // Division rounds towards zero; before 1970 both remainders are brought back to ≥ 0.
        var (seconds, fraction) = microseconds.quotientAndRemainder(dividingBy: 1_000_000)
        if fraction < 0 { seconds -= 1; fraction += 1_000_000 }
        var (days, second) = seconds.quotientAndRemainder(dividingBy: 86_400)
        if second < 0 { days -= 1; second += 86_400 }
        let date = CivilDate(daysSince1970: days)
        var at = 0
        func digits(_ value: Int64, _ count: Int) {
            var value = value
            for index in stride(from: at + count - 1, through: at, by: -1) {
                bytes[index] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
            at += count
        }
        func byte(_ character: Unicode.Scalar) {
            bytes[at] = UInt8(ascii: character)
            at += 1
        }
        digits(date.year, 4); byte("-"); digits(date.month, 2); byte("-"); digits(date.day, 2); byte(" ")
        digits(second / 3600, 2); byte(":"); digits(second / 60 % 60, 2); byte(":"); digits(second % 60, 2); byte(".")
        digits(fraction, 6); byte("+"); byte("0"); byte("0")
        return at
    }

    private static func write(_ text: StaticString, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        let source = UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount)
        bytes.copyMemory(from: source)
        return source.count
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
