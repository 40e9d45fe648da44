import CSQLite

/// SQLite's update hook, which tells `ChangeTracker` the rows each write changed, says nothing
/// about tables declared WITHOUT ROWID (the settings). For each such table someone watches,
/// temporary triggers on the writer's connection call `payload_console_changed(table)`, which
/// notes the whole table as changed: its rows have no ids to list, and such tables are small.
enum SQLiteChangeCapture {
    static let function = "payload_console_changed"

    /// Installs the triggers for those of `tables` that are WITHOUT ROWID; idempotent. Runs on
    /// the writer's thread, outside a transaction.
    static func install(tables: Set<String>, on connection: SQLiteConnection, tracker: ChangeTracker) throws {
        var withoutRowID: [String] = []
        for table in tables.sorted() where SQL.isPlainIdentifier(table) {
            let listed = try connection.row("SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = \(table)")
            if try listed?.first(as: Int.self) == 1 { withoutRowID.append(table) }
        }
        guard !withoutRowID.isEmpty else { return }
        try register(tracker, on: connection)
        for table in withoutRowID {
            for event in ["INSERT", "UPDATE", "DELETE"] {
                // TEMP: the connection's own, never stored in the file another process opens.
                try connection.execute(script: """
                    CREATE TEMP TRIGGER IF NOT EXISTS payload_console_\(event.lowercased())_\(table) AFTER \(event) ON \(table)
                    BEGIN SELECT \(function)('\(table)'); END
                    """)
            }
        }
    }

    private static func register(_ tracker: ChangeTracker, on connection: SQLiteConnection) throws {
        let code = sqlite3_create_function_v2(
            connection.handle, function, 1, SQLITE_UTF8, Unmanaged.passRetained(tracker).toOpaque(),
            { context, count, arguments in
                guard let context, count == 1, let arguments, let user = sqlite3_user_data(context),
                      let text = sqlite3_value_text(arguments[0]) else { return }
                let tracker = Unmanaged<ChangeTracker>.fromOpaque(user).takeUnretainedValue()
                tracker.recordWhole(table: String(cString: text))
            }, nil, nil,
            { tracker in tracker.map { Unmanaged<ChangeTracker>.fromOpaque($0).release() } })
        guard code == SQLITE_OK else { throw connection.lastError() }
    }
}
