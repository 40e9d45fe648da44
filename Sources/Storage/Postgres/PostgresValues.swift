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
            // Binary timestamps count microseconds from 2000-01-01 UTC; the extremes are
            // `-infinity` and `infinity`, which this console sends only for its sentinels (and
            // older consoles stored for times out of range).
            guard let microseconds = bytes.readInteger(as: Int64.self) else { return .null }
            if microseconds == .min { return .real(-.infinity) }
            if microseconds == .max { return .real(.infinity) }
            // One rounding from the integer, so a stored millisecond reads back as itself.
            let (since1970, overflow) = microseconds.addingReportingOverflow(microsecondsBefore2000)
            return .real(overflow ? .infinity : Double(since1970) / 1_000_000)
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

    /// Microseconds since 1970 of a time in years 0001 to 9999, which PostgreSQL keeps exactly
    /// and this text writes with four-digit years; nil for anything else. The console accepts
    /// no other time from outside (`ISOTimestamp.range`); only its own sentinels such as
    /// `Date.distantPast` ("before anything") land beyond, and are sent as `±infinity`.
    static func microsecondsSince1970(_ date: Date) -> Int64? {
        let seconds = date.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e12 else { return nil }
        let microseconds = Int64((seconds * 1_000_000).rounded())
        guard (firstMicrosecond..<endMicrosecond).contains(microseconds) else { return nil }
        return microseconds
    }

    /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z.
    private static let firstMicrosecond: Int64 = -62_135_596_800_000_000
    private static let endMicrosecond: Int64 = 253_402_300_800_000_000
    /// 1970-01-01 counted from 2000-01-01, where PostgreSQL's binary timestamps count.
    static let microsecondsBefore2000: Int64 = 946_684_800_000_000

    /// Writes the timestamp's text into `bytes` (at least `longestTimestamp` of them) and
    /// returns how many it wrote, the date worked out from the day number (`CivilDate`): built
    /// with `gmtime_r` and interpolated Strings, this was a tenth of the writer's CPU per
    /// uploaded line.
    private static func writeTimestamp(_ date: Date, into bytes: UnsafeMutableRawBufferPointer) -> Int {
        guard let microseconds = microsecondsSince1970(date) else {
            return write(date.timeIntervalSince1970 > 0 ? "infinity" : "-infinity", into: bytes)
        }
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
