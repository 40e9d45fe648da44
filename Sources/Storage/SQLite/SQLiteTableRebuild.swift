extension Connection {
    /// Rebuilds an SQLite table under the definition `rewrite` makes of its `CREATE TABLE` text,
    /// keeping its rows, indexes and triggers: SQLite's documented way to make a change ALTER
    /// TABLE cannot (a new table, the rows copied, the old one dropped, the new one renamed).
    /// Call from a migration (`Migrator` runs each in a transaction with foreign keys off, as
    /// the procedure requires, and checks them before committing). The columns must stay as
    /// they were; views are not rewritten.
    public func rebuildSQLiteTable(_ table: String, as rewrite: (String) throws -> String) throws {
        guard dialect == .sqlite else { throw StorageError.invalidQuery("rebuildSQLiteTable is for SQLite") }
        guard let stored = try scalar("SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = \(table)", as: String.self) else {
            throw StorageError.notFound(table: table)
        }
        // A table SQLite has renamed — as this rebuild renames — is stored with its name
        // quoted; `rewrite` sees one spelling whichever is stored.
        let opening = "CREATE TABLE \(table) ("
        let quotedOpening = "CREATE TABLE \(SQL.quoted(identifier: table)) ("
        let definition: String
        if stored.hasPrefix(opening) { definition = stored }
        else if stored.hasPrefix(quotedOpening) { definition = opening + stored.dropFirst(quotedOpening.count) }
        else { throw StorageError.invalidQuery("\(table)'s definition does not begin \(opening)") }
        let rebuilt = "\(table)_rebuilt"
        let rewritten = try rewrite(definition)
        guard rewritten.hasPrefix(opening) else { throw StorageError.invalidQuery("the new definition of \(table) must begin \(opening)") }
        // Indexes SQLite makes for UNIQUE and PRIMARY KEY constraints have no text: the new
        // definition makes them again.
        let companions = try rows("SELECT sql FROM sqlite_schema WHERE tbl_name = \(table) AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY type, name")
            .map { try $0.first(as: String.self) }
        // The largest id ever given (AUTOINCREMENT's), which the copy alone would lower to the
        // largest id left when the newest rows were deleted.
        let hasSequence = try scalar("SELECT count(*) FROM sqlite_schema WHERE name = 'sqlite_sequence'", as: Int.self) == 1
        let sequence = hasSequence ? try scalar("SELECT seq FROM sqlite_sequence WHERE name = \(table)", as: Int64.self) : nil
        try execute(script: "CREATE TABLE \(SQL.quoted(identifier: rebuilt)) (" + rewritten.dropFirst(opening.count))
        try execute(script: """
            INSERT INTO \(SQL.quoted(identifier: rebuilt)) SELECT * FROM \(SQL.quoted(identifier: table));
            DROP TABLE \(SQL.quoted(identifier: table));
            """)
        // Without the legacy rename, SQLite reads every trigger in the schema as it renames,
        // and those on other tables that name this one point at nothing until the rename ends.
        try execute("PRAGMA legacy_alter_table = ON")
        defer { _ = try? execute("PRAGMA legacy_alter_table = OFF") }
        try execute(script: "ALTER TABLE \(SQL.quoted(identifier: rebuilt)) RENAME TO \(SQL.quoted(identifier: table))")
        for companion in companions { try execute(script: companion) }
        if let sequence {
            _ = try execute("UPDATE sqlite_sequence SET seq = max(seq, \(sequence)) WHERE name = \(table)")
            if try scalar("SELECT count(*) FROM sqlite_sequence WHERE name = \(table)", as: Int.self) == 0 {
                _ = try execute("INSERT INTO sqlite_sequence (name, seq) VALUES (\(table), \(sequence))")
            }
        }
    }
}
