import Storage

extension Schema {
    static let logSearchSpeed = Migration(12, "four-letter prefix searches and crash groups from their index alone", sqlite: """
        -- A prefix search merges the lists of every word it matches before it returns a line:
        -- `sync*` over five million lines merged "sync" and "synced" (a fifth of all lines) in
        -- 250 ms. A prefix index answers it from one list; FTS5 keeps one per length listed,
        -- so four letters join two and three, for a seventh more upload time
        -- (Benchmarks/README.md, "The log store").
        DROP TRIGGER device_logs_unindexed;
        DROP TRIGGER device_logs_reindexed;
        DROP TABLE device_log_search;
        CREATE VIRTUAL TABLE device_log_search USING fts5(
            message, content = 'device_logs', content_rowid = 'id',
            tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
        INSERT INTO device_log_search(device_log_search) VALUES ('rebuild');
        CREATE TRIGGER device_logs_unindexed AFTER DELETE ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
        END;
        CREATE TRIGGER device_logs_reindexed AFTER UPDATE OF message ON device_logs BEGIN
            INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
            INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message);
        END;

        -- Crash groups count devices and versions and find first and last sightings: with
        -- those columns in the crash lines' index, a group page reads no table rows.
        DROP INDEX device_logs_crashes;
        CREATE INDEX device_logs_crashes ON device_logs(app, signature, loggedAt, appVersion, deviceID, deviceName) WHERE kind = 'crash';
        """, postgres: PostgresSchema.logSearchSpeed)
}
