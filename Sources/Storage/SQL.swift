/// SQL text with its bound values, written with string interpolation:
///
///     let sql: SQL = "SELECT * FROM users WHERE email = \(email)"
///
/// Every interpolated value becomes a `?` placeholder and a binding, so input never becomes
/// SQL text. Identifiers that must be spliced in use `\(identifier: name)`, which only
/// accepts plain names.
public struct SQL: Sendable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public private(set) var text: String
    public private(set) var bindings: [SQLiteValue]

    /// SQL from text built by code (never from input), with its bindings.
    public init(verbatim text: String, bindings: [SQLiteValue] = []) {
        self.text = text
        self.bindings = bindings
    }

    public init(stringLiteral value: String) {
        self.init(verbatim: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(verbatim: stringInterpolation.text, bindings: stringInterpolation.bindings)
    }

    /// The SQL text only: bound values are never printed.
    public var description: String { text }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(verbatim: lhs.text + rhs.text, bindings: lhs.bindings + rhs.bindings)
    }

    public mutating func append(_ other: SQL) {
        text += other.text
        bindings += other.bindings
    }

    public struct StringInterpolation: StringInterpolationProtocol {
        var text = ""
        var bindings: [SQLiteValue] = []

        public init(literalCapacity: Int, interpolationCount: Int) {
            text.reserveCapacity(literalCapacity + interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            text += literal
        }

        public mutating func appendInterpolation(_ value: some SQLiteValueConvertible) {
            text += "?"
            bindings.append(value.sqliteValue)
        }

        public mutating func appendInterpolation(_ value: SQLiteValue) {
            text += "?"
            bindings.append(value)
        }

        /// A value bound as the ORM stores it in a column (a list or document as JSON text), for a
        /// statement that writes one column of a record without the rest.
        public mutating func appendInterpolation(column value: some Encodable) throws {
            text += "?"
            bindings.append(try ColumnCoding.encode(value, column: "?"))
        }

        /// A comma-separated list of placeholders, for `IN (…)`.
        public mutating func appendInterpolation(list values: [some SQLiteValueConvertible]) {
            text += values.isEmpty ? "NULL" : Array(repeating: "?", count: values.count).joined(separator: ", ")
            bindings += values.map(\.sqliteValue)
        }

        public mutating func appendInterpolation(_ fragment: SQL) {
            text += fragment.text
            bindings += fragment.bindings
        }

        /// A table or column name, quoted. Names are code, never user input; anything but a plain
        /// identifier makes the statement fail to prepare.
        public mutating func appendInterpolation(identifier: String) {
            text += SQL.quoted(identifier: identifier)
        }
    }

    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, first == UInt8(ascii: "_") || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) else {
            return false
        }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
        }
    }

    static func quoted(identifier: String) -> String {
        // SQLite would read an unknown double-quoted name as a string literal, so a bad name
        // becomes a syntax error instead.
        isPlainIdentifier(identifier) ? "\"\(identifier)\"" : "!invalid-identifier!"
    }
}
