import CSQLite

/// Column names of a statement's result, with a name → position lookup built once per statement.
public final class ColumnIndex: @unchecked Sendable {
    // Immutable after init, hence safe to share between rows and threads.
    public let names: [String]
    let positions: [String: Int]

    convenience init(statement: OpaquePointer) {
        let count = sqlite3_column_count(statement)
        self.init(names: (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) })
    }

    /// Whether names are looked up without regard to case: PostgreSQL hands back the names it
    /// folded to lower case (`deviceid` for `deviceID`).
    let foldsCase: Bool

    init(names: [String], foldingCase: Bool = false) {
        self.names = names
        foldsCase = foldingCase
        var positions: [String: Int] = [:]
        for (position, name) in names.enumerated() where positions[name] == nil {
            positions[name] = position
        }
        self.positions = positions
    }
}

extension ColumnIndex {
    func position(of name: String) -> Int? {
        positions[name] ?? (foldsCase ? positions[name.lowercased()] : nil)
    }
}

/// One result row: values in column order, readable by column name.
public struct Row: Sendable {
    let columns: ColumnIndex
    public let values: [SQLiteValue]

    public var columnNames: [String] { columns.names }

    public func hasColumn(_ name: String) -> Bool {
        columns.position(of: name) != nil
    }

    /// The raw value of a column, or `nil` when the row has no such column.
    public subscript(_ name: String) -> SQLiteValue? {
        columns.position(of: name).map { values[$0] }
    }

    /// The value of a column converted to `T`; throws when absent or of another type.
    public func get<T: SQLiteValueConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let value = self[name] else {
            throw StorageError.conversion(column: name, message: "no such column in the result")
        }
        guard let converted = T(sqliteValue: value) else {
            throw StorageError.conversion(column: name, message: "cannot read \(value.storageClass) as \(T.self)")
        }
        return converted
    }

    /// The first column converted to `T`, for `SELECT count(*)` and the like.
    public func first<T: SQLiteValueConvertible>(as type: T.Type = T.self) throws -> T {
        guard let name = columns.names.first else {
            throw StorageError.conversion(column: "?", message: "the result has no columns")
        }
        return try get(name)
    }
}

extension SQLiteValue {
    var storageClass: String {
        switch self {
        case .null: "NULL"
        case .integer: "INTEGER"
        case .real, .date: "REAL"
        case .text: "TEXT"
        case .blob: "BLOB"
        }
    }
}
