import Storage

extension Schema {
    static let logStore = Migration(8, "searchable logs with crash signatures, per-app usage, log events and console settings", sqlite: """
        -- What a line adds to the app's share of the log store, its app version, its
        -- structured fields (a JSON object), and for crash logs the line that names the
        -- crash, which groups them.
        ALTER TABLE device_logs ADD COLUMN appVersion TEXT NOT NULL DEFAULT '';
        ALTER TABLE device_logs ADD COLUMN fields TEXT;
        ALTER TABLE device_logs ADD COLUMN signature TEXT;
        ALTER TABLE device_logs ADD COLUMN byteCount INTEGER NOT NULL DEFAULT 0;
        UPDATE device_logs SET byteCount = length(CAST(message AS BLOB));

        -- Pages are newest first within a filter: walk (filter, id) backwards and stop
        -- after a page. Level is checked on the rows the walk finds.
        DROP INDEX device_logs_by_app;
        CREATE INDEX device_logs_by_app ON device_logs(app, id DESC);
        CREATE INDEX device_logs_crashes ON device_logs(app, signature) WHERE kind = 'crash';

        -- Full text of every message. unicode61 splits identifiers at punctuation, so
        -- E_TIMEOUT is found by "timeout" and com.example.checkin by "checkin"; the query
        -- builder turns each term into a quoted phrase ("e timeout"). Measured against a
        -- tokenizer keeping '._' in words and against trigram: Benchmarks/fts.
        CREATE VIRTUAL TABLE device_log_search USING fts5(
            message, content = 'device_logs', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3');
        INSERT INTO device_log_search(rowid, message) SELECT id, message FROM device_logs;
        CREATE TRIGGER device_logs_indexed AFTER INSERT ON device_logs BEGIN
            INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message);
        END;
        CREATE TRIGGER device_logs_unindexed AFTER DELETE ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
        END;
        CREATE TRIGGER device_logs_reindexed AFTER UPDATE OF message ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
            INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message);
        END;

        -- Each app's share of the log store, kept by the code that adds and removes lines
        -- (one row per batch, not a trigger per line).
        CREATE TABLE log_usage (
            app TEXT PRIMARY KEY,
            byteCount INTEGER NOT NULL,
            lineCount INTEGER NOT NULL
        ) WITHOUT ROWID;
        INSERT INTO log_usage SELECT app, sum(byteCount), count(*) FROM device_logs GROUP BY app;

        -- What happened to the log store without a person doing it: a cap reached,
        -- retention removing old lines.
        CREATE TABLE log_events (
            id INTEGER PRIMARY KEY,
            app TEXT,
            kind TEXT NOT NULL,
            message TEXT NOT NULL,
            at REAL NOT NULL
        );
        CREATE INDEX log_events_by_app ON log_events(app, id DESC);

        -- Console settings an admin changes on the settings page, one value per key.
        CREATE TABLE settings (
            key TEXT PRIMARY KEY,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """, postgres: PostgresSchema.logStore)
}
