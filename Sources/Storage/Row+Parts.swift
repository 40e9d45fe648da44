/// Rows of several tables read side by side in one statement — a device with its simulator's
/// state and its last beacon — where one round trip beats three. Their column names repeat
/// (`id`, `deviceID`), so the query puts a marker column before each table's columns after the
/// first (`d.*, NULL AS __simulator, s.*, NULL AS __beacon, b.*`) and each part is read on its own.
extension Row {
    /// What begins the name of a marker column.
    public static let partMarker = "__"

    /// The columns after the marker column `__<name>` up to the next marker column, or before
    /// the first marker when `name` is nil, as a row of their own. A name the row lacks gives
    /// a row without columns.
    public func part(_ name: String?) -> Row {
        let names = columns.names
        var start = 0
        if let name {
            let marker = Self.partMarker + name
            guard let position = names.firstIndex(where: { $0 == marker || (columns.foldsCase && $0 == marker.lowercased()) }) else {
                return Row(columns: ColumnIndex(names: [], foldingCase: columns.foldsCase), values: [])
            }
            start = position + 1
        }
        let end = names[start...].firstIndex { $0.hasPrefix(Self.partMarker) } ?? names.endIndex
        return Row(columns: ColumnIndex(names: Array(names[start..<end]), foldingCase: columns.foldsCase),
                   values: Array(values[start..<end]))
    }

    /// The row decoded as `T`, each property from the column of its name.
    public func decode<T: Decodable>(_ type: T.Type = T.self) throws -> T {
        try RowDecoder.decode(T.self, from: self)
    }

    /// The record this row holds, or nil when its `id` is NULL: an outer join found no row.
    public func decodeIfFound<R: Record>(_ type: R.Type = R.self) throws -> R? {
        guard let id = self["id"], id != .null else { return nil }
        return try decode(R.self)
    }
}
