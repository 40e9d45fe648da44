/// A `Codable` struct stored as one row of `tableName`.
///
/// Columns are the struct's stored properties, under their Swift names: the row encoder and
/// decoder map them, so no model lists its columns by hand. Scalars map to column types
/// (see `SQLiteValueConvertible`); enums with raw values store the raw value; arrays,
/// dictionaries and nested structs are stored as JSON text.
public protocol Record: Codable, Sendable {
    static var tableName: String { get }
    /// The primary key: `nil` until the row is inserted.
    var id: RecordID<Self>? { get set }
}

/// A record that carries a row version for optimistic concurrency: an update states the version
/// it started from and is refused when someone else saved in between.
public protocol VersionedRecord: Record {
    var version: Int { get set }
}

/// A typed primary key: a `RecordID<User>` cannot be passed where a `RecordID<Device>` is wanted.
public struct RecordID<Owner>: Sendable, Hashable, Comparable, Codable, SQLiteValueConvertible, LosslessStringConvertible {
    public let rawValue: Int64

    public init(_ rawValue: Int64) {
        self.rawValue = rawValue
    }

    public init?(_ description: String) {
        guard let value = Int64(description), value > 0 else { return nil }
        self.rawValue = value
    }

    public var description: String { String(rawValue) }

    public var sqliteValue: SQLiteValue { .integer(rawValue) }

    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self.rawValue = value
    }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(Int64.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public static func < (lhs: RecordID, rhs: RecordID) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

extension Record {
    /// A query over this record's table; refine it with `filter`, `order` and `limit`.
    public static func query() -> Query<Self> {
        Query()
    }

    /// The id of a record read from the database (its id is set by then).
    public var requireID: RecordID<Self> {
        get throws {
            guard let id else { throw StorageError.notFound(table: Self.tableName) }
            return id
        }
    }
}
