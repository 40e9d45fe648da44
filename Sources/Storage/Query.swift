/// A query over one record table: conditions, order, limit and offset, with every value bound.
///
///     let page = try conn.fetch(Device.query()
///         .filter("groupID", .equal, groupID)
///         .filter("name", .greater, lastName)      // keyset pagination
///         .order(by: "name")
///         .limit(50))
public struct Query<R: Record>: Sendable {
    public enum Comparison: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case less = "<"
        case lessOrEqual = "<="
        case greater = ">"
        case greaterOrEqual = ">="
        case like = "LIKE"
    }

    public enum Direction: String, Sendable {
        case ascending = "ASC"
        case descending = "DESC"
    }

    private var conditions: [SQL] = []
    private var ordering: [String] = []
    private var limitCount: Int?
    private var offsetCount: Int?

    public init() {}

    /// Keeps rows where `column` compares to `value`; a `nil` value means `IS NULL` / `IS NOT NULL`.
    public func filter(_ column: String, _ comparison: Comparison = .equal, _ value: some SQLiteValueConvertible) -> Query {
        var copy = self
        let value = value.sqliteValue
        switch (value, comparison) {
        case (.null, .equal): copy.conditions.append("\(identifier: column) IS NULL")
        case (.null, .notEqual): copy.conditions.append("\(identifier: column) IS NOT NULL")
        default: copy.conditions.append("\(identifier: column) \(SQL(verbatim: comparison.rawValue)) \(value)")
        }
        return copy
    }

    /// Keeps rows where `column` is one of `values`.
    public func filter(_ column: String, in values: [some SQLiteValueConvertible]) -> Query {
        var copy = self
        copy.conditions.append("\(identifier: column) IN (\(list: values))")
        return copy
    }

    /// Keeps rows matching a hand-written condition (values still bound through `SQL`).
    public func filter(_ condition: SQL) -> Query {
        var copy = self
        copy.conditions.append("(" + condition + ")")
        return copy
    }

    public func order(by column: String, _ direction: Direction = .ascending) -> Query {
        var copy = self
        copy.ordering.append("\(SQL.quoted(identifier: column)) \(direction.rawValue)")
        return copy
    }

    public func limit(_ count: Int, offset: Int? = nil) -> Query {
        var copy = self
        copy.limitCount = max(0, count)
        copy.offsetCount = offset.map { max(0, $0) }
        return copy
    }

    /// The statement selecting every column of the matching rows: for reads sent together
    /// (`Connection.rows(together:)`), decoded with `Row.decode`.
    public var sql: SQL { sql(selecting: "*") }

    /// How many rows match: the order does not change a count (and PostgreSQL refuses an
    /// ORDER BY beside count(*)), so it is left out.
    var countSQL: SQL {
        var unordered = self
        unordered.ordering = []
        return unordered.sql(selecting: "count(*)")
    }

    /// The statement selecting `selection` (for example `*` or `count(*)`) from the table.
    func sql(selecting selection: String) -> SQL {
        var sql = SQL(verbatim: "SELECT \(selection) FROM \(SQL.quoted(identifier: R.tableName))")
        if !conditions.isEmpty {
            sql.append(" WHERE ")
            for (index, condition) in conditions.enumerated() {
                if index > 0 { sql.append(" AND ") }
                sql.append(condition)
            }
        }
        if !ordering.isEmpty {
            sql.append(SQL(verbatim: " ORDER BY " + ordering.joined(separator: ", ")))
        }
        if let limitCount {
            sql.append(" LIMIT \(limitCount)")
            if let offsetCount {
                sql.append(" OFFSET \(offsetCount)")
            }
        }
        return sql
    }
}
