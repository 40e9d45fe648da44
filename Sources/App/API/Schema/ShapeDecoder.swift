/// The `Decoder` `SchemaReader` hands a type's `init(from:)`: it holds no data, and writes
/// down what it is asked for. Every field is present (so a type that checks `contains` reads
/// it), none is null, and an array has one item.
struct ShapeDecoder: Decoder {
    let reader: SchemaReader
    let slot: SchemaReader.Slot
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        if slot.schema.properties == nil {
            slot.schema = .of(.object)
            slot.schema.properties = [:]
        }
        return KeyedDecodingContainer(ObjectShape<Key>(decoder: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        slot.schema = .array(of: JSONSchema())
        return ArrayShape(decoder: self)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueShape(decoder: self)
    }
}

/// An object's fields, each written down as a property when asked for.
private struct ObjectShape<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var allKeys: [Key] { [] }

    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool { false }

    private func property<T: Decodable>(_ type: T.Type, _ key: Key, required: Bool) throws -> T {
        let slot = SchemaReader.Slot()
        let value = try decoder.reader.value(of: type, into: slot, at: codingPath + [key])
        decoder.slot.schema.properties?[key.stringValue] = required ? slot.schema : slot.schema.orNull
        if required { require(key) }
        return value
    }

    private func require(_ key: Key) {
        if !(decoder.slot.schema.required ?? []).contains(key.stringValue) {
            decoder.slot.schema.required = (decoder.slot.schema.required ?? []) + [key.stringValue]
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try property(type, key, required: true) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { try property(type, key, required: false) }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try property(type, key, required: true) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try property(type, key, required: true) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try property(type, key, required: true) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try property(type, key, required: true) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try property(type, key, required: true) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try property(type, key, required: true) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try property(type, key, required: true) }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try property(type, key, required: false) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try property(type, key, required: false) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try nested(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try nested(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }
    func superDecoder(forKey key: Key) throws -> any Decoder { nested(key) }

    /// A required property the type reads field by field itself; settled when it is done.
    private func nested(_ key: Key) -> ShapeDecoder {
        let slot = SchemaReader.Slot()
        decoder.slot.nestedProperties.append((key.stringValue, slot))
        require(key)
        return ShapeDecoder(reader: decoder.reader, slot: slot, codingPath: codingPath + [key])
    }
}

/// An array's items: one is read, then the array ends.
private struct ArrayShape: UnkeyedDecodingContainer {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }
    var count: Int? { nil }
    private(set) var currentIndex = 0
    var isAtEnd: Bool { currentIndex > 0 }

    init(decoder: ShapeDecoder) {
        self.decoder = decoder
    }

    mutating func decodeNil() throws -> Bool { false }

    private mutating func item<T: Decodable>(_ type: T.Type) throws -> T {
        let slot = SchemaReader.Slot()
        let value = try decoder.reader.value(of: type, into: slot, at: codingPath + [IndexKey(intValue: currentIndex)])
        decoder.slot.schema.items = slot.schema
        currentIndex += 1
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try item(type) }
    mutating func decode(_ type: Bool.Type) throws -> Bool { try item(type) }
    mutating func decode(_ type: String.Type) throws -> String { try item(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try item(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try item(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try item(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try item(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try item(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try nestedItem().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nestedItem().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nestedItem() }

    private mutating func nestedItem() throws -> ShapeDecoder {
        let slot = SchemaReader.Slot()
        decoder.slot.nestedItems = slot
        defer { currentIndex += 1 }
        return ShapeDecoder(reader: decoder.reader, slot: slot, codingPath: codingPath + [IndexKey(intValue: currentIndex)])
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { intValue.map(String.init) ?? "" }
    init(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A single value: its type decides its schema.
private struct ValueShape: SingleValueDecodingContainer {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { false }

    private func value<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.reader.value(of: type, into: decoder.slot, at: codingPath)
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try value(type) }
    func decode(_ type: Bool.Type) throws -> Bool { try value(type) }
    func decode(_ type: String.Type) throws -> String { try value(type) }
    func decode(_ type: Double.Type) throws -> Double { try value(type) }
    func decode(_ type: Float.Type) throws -> Float { try value(type) }
    func decode(_ type: Int.Type) throws -> Int { try value(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try value(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try value(type) }
}
