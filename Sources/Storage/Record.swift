/// A `Codable` struct stored as one row of `tableName`.
///
/// Columns are the struct's stored properties, under their Swift names: the row encoder and
/// decoder map them, so no model lists its columns by hand. Scalars map to column types
/// (see `SQLiteValueConvertible`); enums with raw values store the raw value; arrays,
/// dictionaries and nested structs are stored as JSON text.
public protocol Record: Codable, Sendable {
    static var tableName: String { get }
    /// The primary key. A record not stored yet holds `RecordID.unsaved` (each record declares
    /// `var id: RecordID<Self> = .unsaved`), and `Connection.insert` returns it with its real id,
    /// so code past the insert never unwraps an id.
    var id: RecordID<Self> { get set }
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

    /// The id of a record not stored yet. Real ids are positive (SQLite's `AUTOINCREMENT` and
    /// PostgreSQL's identity columns start at 1, and `init?(_: String)` refuses anything below),
    /// so no stored row and no address can name it: `insert` leaves the column out for it, and
    /// `update`, `delete` and `find` answer not found instead of touching a row 0. It is a plain
    /// value rather than an optional on purpose: a sentinel the storage layer checks keeps the
    /// 80-odd callers that only ever see stored records free of `!`.
    public static var unsaved: RecordID { RecordID(0) }

    /// False for `unsaved`: the record behind this id has not been inserted.
    public var isSaved: Bool { rawValue > 0 }

    /// This id, or nil for `unsaved`: for the few values where "no stored row" is a real answer
    /// (an API token made on the command line acts for no person, so its made-up `User` is
    /// unsaved and its actor's `userID` nil).
    public var ifSaved: RecordID? { isSaved ? self : nil }

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
}
