extension Connection {
    /// Inserts `record` and returns it with its new id. A record that already holds a real id
    /// (a copy, a test's fixed row) is inserted under that id.
    public func insert<R: Record>(_ record: R) throws -> R {
        var columns = try RowEncoder.columns(of: record)
        if !record.id.isSaved {
            columns.removeAll { $0.name == "id" }
        }
        let names = columns.map { SQL.quoted(identifier: $0.name) }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: columns.count).joined(separator: ", ")
        let table = SQL.quoted(identifier: R.tableName)
        // `RETURNING` gives the new id on both backends (SQLite since 3.35).
        let inserted = SQL(verbatim: "INSERT INTO \(table) (\(names)) VALUES (\(placeholders)) RETURNING id", bindings: columns.map(\.value))
        guard let id = try scalar(inserted, as: Int64.self) else {
            throw StorageError.invalidQuery("INSERT INTO \(table) returned no id")
        }
        var saved = record
        saved.id = RecordID(id)
        return saved
    }

    /// Writes every column of `record` to its row; throws `notFound` when the row is gone or
    /// `record` was never stored.
    public func update<R: Record>(_ record: R) throws {
        let id = try Self.stored(record.id)
        let changed = try execute(updateStatement(for: record, id: id, extraCondition: nil))
        if changed == 0 {
            throw StorageError.notFound(table: R.tableName)
        }
    }

    /// Saves `record` only if its row still has the version `record.version` was read at;
    /// returns the record with its version increased. A concurrent save in between makes this
    /// throw `versionConflict` instead of overwriting it, and an unstored record `notFound`.
    public func update<R: VersionedRecord>(checkingVersion record: R) throws -> R {
        let id = try Self.stored(record.id)
        var next = record
        next.version = record.version + 1
        let changed = try execute(updateStatement(for: next, id: id, extraCondition: "version = \(record.version)"))
        if changed == 0 {
            let table = SQL.quoted(identifier: R.tableName)
            guard let actual = try scalar(SQL(verbatim: "SELECT version FROM \(table) WHERE id = ?", bindings: [id.sqliteValue]), as: Int.self) else {
                throw StorageError.notFound(table: R.tableName)
            }
            throw StorageError.versionConflict(table: R.tableName, expected: record.version, actual: actual)
        }
        return next
    }

    /// Deletes the row with `id`; throws `notFound` when there was none (always for `unsaved`).
    public func delete<R: Record>(_ type: R.Type, id: RecordID<R>) throws {
        _ = try Self.stored(id)
        let table = SQL.quoted(identifier: R.tableName)
        if try execute(SQL(verbatim: "DELETE FROM \(table) WHERE id = ?", bindings: [id.sqliteValue])) == 0 {
            throw StorageError.notFound(table: R.tableName)
        }
    }

    /// Deletes every row the query matches (its order and limit are ignored); returns how many.
    @discardableResult
    public func delete<R: Record>(_ query: Query<R>) throws -> Int {
        let select = query.sql(selecting: "id")
        let table = SQL.quoted(identifier: R.tableName)
        return try execute(SQL(verbatim: "DELETE FROM \(table) WHERE id IN (", bindings: []) + select + ")")
    }

    /// The row with `id`, or nil when there is none (always for `unsaved`).
    public func find<R: Record>(_ type: R.Type, id: RecordID<R>) throws -> R? {
        guard id.isSaved else { return nil }
        return try fetchOne(R.query().filter("id", .equal, id))
    }

    /// Like `find`, but a missing row is an error.
    public func require<R: Record>(_ type: R.Type, id: RecordID<R>) throws -> R {
        guard let record = try find(type, id: id) else { throw StorageError.notFound(table: R.tableName) }
        return record
    }

    public func fetch<R: Record>(_ query: Query<R>) throws -> [R] {
        try rows(query.sql(selecting: "*")).map { try RowDecoder.decode(R.self, from: $0) }
    }

    public func fetchOne<R: Record>(_ query: Query<R>) throws -> R? {
        try row(query.limit(1).sql(selecting: "*")).map { try RowDecoder.decode(R.self, from: $0) }
    }

    public func count<R: Record>(_ query: Query<R>) throws -> Int {
        try scalar(query.countSQL, as: Int.self) ?? 0
    }

    /// Runs any query and decodes each row into `T` by column name (joins, view models).
    public func fetch<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> [T] {
        try rows(sql).map { try RowDecoder.decode(T.self, from: $0) }
    }

    public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> T? {
        try row(sql).map { try RowDecoder.decode(T.self, from: $0) }
    }

    /// `id` itself, or `notFound` for `unsaved`: writing to it would name no row (or, had
    /// someone stored a row 0 by hand, the wrong one).
    private static func stored<R: Record>(_ id: RecordID<R>) throws -> RecordID<R> {
        guard id.isSaved else { throw StorageError.notFound(table: R.tableName) }
        return id
    }

    private func updateStatement<R: Record>(for record: R, id: RecordID<R>, extraCondition: SQL?) throws -> SQL {
        let columns = try RowEncoder.columns(of: record).filter { $0.name != "id" }
        let assignments = columns.map { "\(SQL.quoted(identifier: $0.name)) = ?" }.joined(separator: ", ")
        let table = SQL.quoted(identifier: R.tableName)
        var sql = SQL(verbatim: "UPDATE \(table) SET \(assignments) WHERE id = ?", bindings: columns.map(\.value) + [id.sqliteValue])
        if let extraCondition {
            sql.append(" AND " + extraCondition)
        }
        return sql
    }
}
