/// Builds a `Decodable` value from a row, reading each property from the column of its name.
enum RowDecoder {
    static func decode<T: Decodable>(_ type: T.Type, from row: Row) throws -> T {
        try T(from: RowDecoding(row: row))
    }
}

private struct RowDecoding: Decoder {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowKeyedDecodingContainer<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw StorageError.conversion(column: "?", message: "a row decodes into a keyed container only")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw StorageError.conversion(column: "?", message: "a row decodes into a keyed container only")
    }
}

private struct RowKeyedDecodingContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: Row
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { row.columnNames.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { row.hasColumn(key.stringValue) }

    func decodeNil(forKey key: Key) throws -> Bool {
        guard let value = row[key.stringValue] else { return true }
        return value == .null
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try convertible(key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try convertible(key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try convertible(key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try convertible(key) as Double) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try convertible(key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try convertible(key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ColumnCoding.decode(T.self, from: try value(key), column: key.stringValue)
    }

    private func value(_ key: Key) throws -> SQLiteValue {
        guard let value = row[key.stringValue] else {
            throw StorageError.conversion(column: key.stringValue, message: "no such column in the result")
        }
        return value
    }

    private func convertible<T: SQLiteValueConvertible>(_ key: Key) throws -> T {
        let value = try value(key)
        guard let converted = T(sqliteValue: value) else {
            throw ColumnCoding.mismatch(T.self, value, key.stringValue)
        }
        return converted
    }

    private func integer<T: FixedWidthInteger>(_ key: Key) throws -> T {
        let wide: Int64 = try convertible(key)
        guard let narrow = T(exactly: wide) else {
            throw StorageError.conversion(column: key.stringValue, message: "\(wide) does not fit \(T.self)")
        }
        return narrow
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw StorageError.conversion(column: key.stringValue, message: "nested values are read from JSON columns")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw StorageError.conversion(column: key.stringValue, message: "nested values are read from JSON columns")
    }

    func superDecoder() throws -> any Decoder { RowDecoding(row: row) }
    func superDecoder(forKey key: Key) throws -> any Decoder { RowDecoding(row: row) }
}
