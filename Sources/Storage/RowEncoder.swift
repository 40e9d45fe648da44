/// Turns a `Codable` struct into (column, value) pairs, one per stored property.
///
/// Optional properties that are `nil` become NULL columns rather than being left out, so an
/// UPDATE clears them.
enum RowEncoder {
    static func columns<T: Encodable>(of value: T) throws -> [(name: String, value: SQLiteValue)] {
        let encoder = RowEncoding()
        try value.encode(to: encoder)
        if let failure = encoder.failure {
            throw failure
        }
        return encoder.columns
    }
}

private final class RowEncoding: Encoder {
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]
    var columns: [(name: String, value: SQLiteValue)] = []
    var failure: (any Error)?

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(RowKeyedEncodingContainer<Key>(encoding: self))
    }

    // A row is keyed by column name; anything else is a programming error reported as a throw.
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        failure = StorageError.conversion(column: "?", message: "a record must encode as a keyed container")
        return RowEncoding.Refusing(codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        failure = StorageError.conversion(column: "?", message: "a record must encode as a keyed container")
        return RowEncoding.Refusing(codingPath: codingPath)
    }

    func append(_ key: some CodingKey, _ value: SQLiteValue) {
        columns.append((key.stringValue, value))
    }

    /// Accepts and drops values after a refused container, so encoding ends and the stored
    /// failure is thrown.
    struct Refusing: UnkeyedEncodingContainer, SingleValueEncodingContainer {
        var codingPath: [any CodingKey]
        var count = 0
        mutating func encodeNil() throws {}
        mutating func encode<T: Encodable>(_ value: T) throws {}
        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            KeyedEncodingContainer(RowKeyedEncodingContainer<NestedKey>(encoding: RowEncoding()))
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }
        mutating func superEncoder() -> any Encoder { RowEncoding() }
    }
}

private struct RowKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: RowEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }

    mutating func encodeNil(forKey key: Key) throws { encoding.append(key, .null) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { encoding.append(key, value.sqliteValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { encoding.append(key, .text(value)) }
    mutating func encode(_ value: Double, forKey key: Key) throws { encoding.append(key, .real(value)) }
    mutating func encode(_ value: Float, forKey key: Key) throws { encoding.append(key, .real(Double(value))) }
    mutating func encode(_ value: Int, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { encoding.append(key, .integer(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try encodeUnsigned(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { encoding.append(key, .integer(Int64(value))) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try encodeUnsigned(value, key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        encoding.append(key, try ColumnCoding.encode(value, column: key.stringValue))
    }

    // Synthesised Codable skips nil optionals through encodeIfPresent; a row needs them as NULL.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value {
            try encode(value, forKey: key)
        } else {
            encoding.append(key, .null)
        }
    }

    private func encodeUnsigned<T: UnsignedInteger>(_ value: T, _ key: Key) throws {
        guard let signed = Int64(exactly: value) else {
            throw StorageError.conversion(column: key.stringValue, message: "\(value) does not fit a 64-bit signed integer")
        }
        encoding.append(key, .integer(signed))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoding.failure = StorageError.conversion(column: key.stringValue, message: "nested containers are stored as JSON values, not columns")
        return KeyedEncodingContainer(RowKeyedEncodingContainer<NestedKey>(encoding: RowEncoding()))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoding.failure = StorageError.conversion(column: key.stringValue, message: "nested containers are stored as JSON values, not columns")
        return RowEncoding.Refusing(codingPath: codingPath)
    }

    mutating func superEncoder() -> any Encoder { encoding }
    mutating func superEncoder(forKey key: Key) -> any Encoder { encoding }
}
