import Foundation
import NIOCore

/// `INSERT INTO t (a, b) VALUES (?, CAST(? AS tsvector))` run for many rows as one
/// `COPY t (a, b) FROM STDIN`: the server reads rows of text instead of parsing a statement of
/// thousands of parameters, which made a log upload's insert about half as costly for it
/// (100,000 lines: 1.4 s against 2.7 s). A value in COPY's text form is read by its column's
/// input function, as an untyped parameter or a `CAST(? AS type)` of one is, so the rows
/// stored are the same.
struct CopyInsert {
    let table: String
    let columns: [String]
    private let texts: String

    /// nil unless `text` is an INSERT into plain-named columns whose one VALUES tuple holds
    /// only `?` or `CAST(? AS type)` for each of them.
    init?(_ text: String) {
        let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard words.uppercased().hasPrefix("INSERT INTO "),
              let open = words.firstIndex(of: "("), let close = words[open...].firstIndex(of: ")"),
              let values = words.range(of: " VALUES ", options: .caseInsensitive), values.lowerBound > close else { return nil }
        let table = words.dropFirst("INSERT INTO ".count).prefix { $0 != " " && $0 != "(" }
        let columns = words[words.index(after: open)..<close].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let tuple = words[values.upperBound...].trimmingCharacters(in: .whitespaces)
        guard tuple.hasPrefix("("), tuple.hasSuffix(")") else { return nil }
        let placeholders = tuple.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard SQL.isPlainIdentifier(String(table)), !columns.isEmpty, columns.allSatisfy(SQL.isPlainIdentifier),
              placeholders.count == columns.count, placeholders.allSatisfy(Self.isParameter) else { return nil }
        self.table = table.lowercased()
        self.columns = columns.map { $0.lowercased() }
        texts = text
    }

    /// `?` or `CAST(? AS type)` with a plain type name.
    private static func isParameter(_ placeholder: String) -> Bool {
        if placeholder == "?" { return true }
        let upper = placeholder.uppercased()
        guard upper.hasPrefix("CAST(? AS "), upper.hasSuffix(")") else { return false }
        return SQL.isPlainIdentifier(String(placeholder.dropFirst("CAST(? AS ".count).dropLast()))
    }

    /// Appends `row` as one line of COPY's text format. A row of the wrong width is a
    /// programming error the server would refuse too; it is refused here before anything is sent.
    func append(_ row: [SQLiteValue], to buffer: inout ByteBuffer) throws {
        guard row.count == columns.count else {
            throw StorageError.conversion(column: table, message: "\(row.count) values for the \(columns.count) columns of \(table) in \(texts)")
        }
        for (index, value) in row.enumerated() {
            if index > 0 { buffer.writeInteger(UInt8(ascii: "\t")) }
            switch value {
            case .null: buffer.writeStaticString("\\N")
            case .integer(let number): buffer.writeString(String(number))
            case .real(let number): buffer.writeString(PostgresValues.realText(number))
            case .text(let text): Self.appendEscaped(text, to: &buffer)
            case .date(let date): PostgresValues.appendTimestamp(date, to: &buffer)
            case .blob(let bytes):
                // bytea's hex form, its backslash doubled for COPY.
                buffer.writeStaticString("\\\\x")
                let digits = Array("0123456789abcdef".utf8)
                for byte in bytes {
                    buffer.writeInteger(digits[Int(byte >> 4)])
                    buffer.writeInteger(digits[Int(byte & 0x0F)])
                }
            }
        }
        buffer.writeInteger(UInt8(ascii: "\n"))
    }

    /// COPY's text form: backslash, tab, newline and carriage return are escaped; nothing else.
    /// Read as one buffer of bytes: every text of every uploaded line passes here.
    private static func appendEscaped(_ text: String, to buffer: inout ByteBuffer) {
        var text = text
        text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            var plainFrom = 0
            for index in bytes.indices {
                let escape: StaticString
                switch bytes[index] {
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\t"): escape = "\\t"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                default: continue
                }
                buffer.writeBytes(UnsafeRawBufferPointer(rebasing: raw[plainFrom..<index]))
                buffer.writeStaticString(escape)
                plainFrom = index + 1
            }
            buffer.writeBytes(UnsafeRawBufferPointer(rebasing: raw[plainFrom...]))
        }
    }
}
