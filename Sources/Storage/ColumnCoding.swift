import Foundation

/// How a single property value becomes a column value and back, shared by the row encoder and
/// decoder so both sides agree.
enum ColumnCoding {
    // Configured once and never mutated, so one shared instance serves every thread.
    static let jsonEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    static let jsonDecoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()

    static func encode<T: Encodable>(_ value: T, column: String) throws -> SQLiteValue {
        if let convertible = value as? any SQLiteValueConvertible {
            return convertible.sqliteValue
        }
        if let raw = value as? any RawRepresentable, let rawValue = raw.rawValue as? any SQLiteValueConvertible {
            return rawValue.sqliteValue
        }
        do {
            let data = try jsonEncoder.encode(value)
            return .text(String(decoding: data, as: UTF8.self))
        } catch {
            throw StorageError.conversion(column: column, message: "cannot encode \(T.self) as JSON: \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from value: SQLiteValue, column: String) throws -> T {
        if let convertibleType = T.self as? any SQLiteValueConvertible.Type {
            guard let converted = convertibleType.init(sqliteValue: value) as? T else {
                throw mismatch(T.self, value, column)
            }
            return converted
        }
        if let rawType = T.self as? any RawRepresentable.Type {
            guard let converted = makeRawRepresentable(rawType, from: value) as? T else {
                throw mismatch(T.self, value, column)
            }
            return converted
        }
        let data: Data
        switch value {
        case .text(let text): data = Data(text.utf8)
        case .blob(let bytes): data = Data(bytes)
        default: throw mismatch(T.self, value, column)
        }
        do {
            return try jsonDecoder.decode(T.self, from: data)
        } catch {
            throw StorageError.conversion(column: column, message: "stored JSON does not decode as \(T.self)")
        }
    }

    private static func makeRawRepresentable<R: RawRepresentable>(_ type: R.Type, from value: SQLiteValue) -> R? {
        guard let rawType = R.RawValue.self as? any SQLiteValueConvertible.Type,
            let raw = rawType.init(sqliteValue: value) as? R.RawValue
        else { return nil }
        return R(rawValue: raw)
    }

    static func mismatch(_ type: Any.Type, _ value: SQLiteValue, _ column: String) -> StorageError {
        .conversion(column: column, message: "cannot read \(value.storageClass) as \(type)")
    }
}

extension SQLiteValue {
    /// A value as a JSON column holds it, encoded exactly as records' JSON properties are, for
    /// SQL written by hand that writes such a column.
    public static func json(_ value: some Encodable, column: String) throws -> SQLiteValue {
        try ColumnCoding.encode(value, column: column)
    }
}

extension SQLiteValue {
    /// A value as the ORM stores it in a column (a list or document as JSON text), for a row
    /// written without the record encoder (`Connection.execute(_:forEachOf:)`).
    public static func column(_ value: some Encodable) throws -> SQLiteValue {
        try ColumnCoding.encode(value, column: "?")
    }
}
