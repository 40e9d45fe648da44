import Foundation

/// One value as SQLite stores it: the five storage classes, and a moment in time to bind.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    /// A moment bound to a statement: SQLite stores it as REAL seconds since 1970, PostgreSQL
    /// as `timestamptz`, whose column a number would not fit. Read back, it is `.real`.
    case date(Date)
}

/// A Swift type that maps to one column value and back.
///
/// Dates are stored as REAL seconds since 1970 (sortable, sub-second precise); UUIDs as
/// upper-case text; `Bool` as 0/1.
public protocol SQLiteValueConvertible: Sendable {
    var sqliteValue: SQLiteValue { get }
    init?(sqliteValue: SQLiteValue)
}

extension String: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue else { return nil }
        self = text
    }
}

extension Int64: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .integer(let value): self = value
        case .real(let value) where value.rounded() == value && abs(value) < 9.2e18: self = Int64(value)
        default: return nil
        }
    }
}

extension Int: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue) else { return nil }
        self = Int(value)
    }
}

extension Int32: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(Int64(self)) }
    public init?(sqliteValue: SQLiteValue) {
        guard let value = Int64(sqliteValue: sqliteValue), let narrow = Int32(exactly: value) else { return nil }
        self = narrow
    }
}

extension Double: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .real(self) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .real(let value): self = value
        case .integer(let value): self = Double(value)
        case .date(let date): self = date.timeIntervalSince1970
        default: return nil
        }
    }
}

extension Bool: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .integer(self ? 1 : 0) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .integer(let value) = sqliteValue else { return nil }
        self = value != 0
    }
}

extension Date: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .date(self) }
    public init?(sqliteValue: SQLiteValue) {
        guard let seconds = Double(sqliteValue: sqliteValue) else { return nil }
        self = Date(timeIntervalSince1970: seconds)
    }
}

extension UUID: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(uuidString) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue, let uuid = UUID(uuidString: text) else { return nil }
        self = uuid
    }
}

extension Data: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .blob([UInt8](self)) }
    public init?(sqliteValue: SQLiteValue) {
        switch sqliteValue {
        case .blob(let bytes): self = Data(bytes)
        case .text(let text): self = Data(text.utf8)
        default: return nil
        }
    }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { self?.sqliteValue ?? .null }
    public init?(sqliteValue: SQLiteValue) {
        if case .null = sqliteValue {
            self = .none
        } else if let value = Wrapped(sqliteValue: sqliteValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
