/// Which rows of the watched tables a PostgreSQL transaction changed — what SQLite's update
/// hook tells `ChangeTracker` for free. A row trigger on each watched table notes
/// `table:id` in a setting local to the transaction; the writer reads it just before COMMIT.
/// Triggers see every change, including those made by other triggers (`policy_generation`
/// moving with an assignment) and by cascades, which a statement's text would not show.
enum PostgresChangeCapture {
    static let setting = "payload_console.changes"
    /// Tables with more changes than are worth listing, noted once: bulk updates stay cheap.
    static let wholeSetting = "payload_console.changed_wholly"
    /// Past this many characters of notes a table's further changes count as "every row".
    static let noteLimit = 16_000

    /// Creates (or replaces) the note-taking function and a trigger on each of `tables`, in
    /// the connection's schema. Idempotent; run once per console start.
    static func install(tables: Set<String>, on connection: Connection) throws {
        try connection.execute(script: """
            CREATE OR REPLACE FUNCTION payload_console_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
            DECLARE
                noted text;
                row_id text;
            BEGIN
                IF coalesce(current_setting('\(wholeSetting)', true), '') LIKE '%,' || TG_TABLE_NAME || ',%' THEN
                    RETURN NULL;
                END IF;
                noted := coalesce(current_setting('\(setting)', true), '');
                IF length(noted) >= \(noteLimit) THEN
                    PERFORM set_config('\(wholeSetting)', coalesce(current_setting('\(wholeSetting)', true), ',') || TG_TABLE_NAME || ',', true);
                    RETURN NULL;
                END IF;
                IF TG_OP = 'DELETE' THEN row_id := to_jsonb(OLD) ->> 'id'; ELSE row_id := to_jsonb(NEW) ->> 'id'; END IF;
                PERFORM set_config('\(setting)', noted || TG_TABLE_NAME || ':' || coalesce(row_id, '*') || ',', true);
                RETURN NULL;
            END $$
            """)
        for table in tables.sorted() where SQL.isPlainIdentifier(table) {
            try connection.execute(script: """
                CREATE OR REPLACE TRIGGER payload_console_changes AFTER INSERT OR UPDATE OR DELETE ON \(table)
                FOR EACH ROW EXECUTE FUNCTION payload_console_note_change()
                """)
        }
    }

    /// Reads the transaction's notes into `tracker` and announces them to the other consoles on
    /// the database (`ChangeAnnouncement`). Call inside the transaction, before COMMIT.
    static func collect(from connection: Connection, into tracker: ChangeTracker, origin: String, channel: String) throws {
        let query = SQL(verbatim: "SELECT current_setting('\(setting)', true) AS noted, current_setting('\(wholeSetting)', true) AS whole")
        guard tracker.isWatching, let row = try connection.row(query) else { return }
        let notes = try row.get("noted", as: String?.self) ?? ""
        let wholly = try row.get("whole", as: String?.self) ?? ""
        guard !notes.isEmpty || !wholly.isEmpty else { return }
        tracker.record(CommittedChanges(notes: notes, wholly: wholly))
        let payload = ChangeAnnouncement(origin: origin, notes: notes, wholly: wholly).payload
        _ = try connection.execute("SELECT pg_notify(\(channel), \(payload))")
    }
}
