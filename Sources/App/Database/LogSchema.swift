import Storage

/// The log store's own database file, beside the console's (`LogStoreFiles`): uploaded lines,
/// their full-text index, each app's share and the store's events. It has a writer of its own,
/// so a flood of uploads never queues an admin's save, a sign-in or a check-in, and migrations
/// of its own, numbered from 1. Console migrations 8–19 built the same tables inside the
/// console's file; `LogStoreMove` carries what they hold over once.
enum LogSchema {
    static let migrations: [Migration] = [
        Migration(1, "log lines, their full-text index behind the writer, usage and events", sqlite: """
            -- Uploaded app and crash logs. They outlive their device (an enterprise wipe keeps
            -- them), so the device's name is copied in; deviceID names a row of the console's
            -- database and is cleared when that device is removed. AUTOINCREMENT: ids only
            -- grow, even after the newest lines are deleted, because the indexer's mark
            -- (log_index_progress) says "every line up to this id is indexed".
            CREATE TABLE device_logs (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                deviceID INTEGER,
                deviceName TEXT NOT NULL,
                app TEXT NOT NULL,
                appVersion TEXT NOT NULL DEFAULT '',
                kind TEXT NOT NULL CHECK (kind IN ('application', 'crash')),
                level TEXT NOT NULL CHECK (level IN ('error', 'warning', 'information', 'debug')),
                message TEXT NOT NULL,
                fields TEXT,
                signature TEXT,
                loggedAt REAL NOT NULL,
                receivedAt REAL NOT NULL,
                byteCount INTEGER NOT NULL
            );
            -- Pages are newest first within a filter: walk (filter, id) backwards and stop
            -- after a page. A device's recent lines by when they were logged.
            CREATE INDEX device_logs_by_device ON device_logs(deviceID, id DESC);
            CREATE INDEX device_logs_by_app ON device_logs(app, id DESC);
            CREATE INDEX device_logs_by_device_time ON device_logs(deviceID, loggedAt DESC, id DESC);
            -- Crash groups from their index alone, and how many groups had a crash lately.
            CREATE INDEX device_logs_crashes ON device_logs(app, signature, loggedAt, appVersion, deviceID, deviceName) WHERE kind = 'crash';
            CREATE INDEX device_logs_crash_times ON device_logs(loggedAt, app, signature) WHERE kind = 'crash';

            -- Full text of every message, as console migrations 8 and 12 chose it (unicode61
            -- splits E_TIMEOUT and com.example.app at punctuation; prefixes of 2–4 letters
            -- answer `sync*` from one list). Lines enter it behind the writer, a large batch
            -- at a time (`LogIndexer`); a page of 4,000 bytes and merging 16 segments at a
            -- time suit an index written in large batches (../shared/BUILD-NOTES.md).
            CREATE VIRTUAL TABLE device_log_search USING fts5(
                message, content = 'device_logs', content_rowid = 'id',
                tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
            INSERT INTO device_log_search(device_log_search, rank) VALUES ('pgsz', 4000);
            INSERT INTO device_log_search(device_log_search, rank) VALUES ('automerge', 16);

            -- Every line with an id up to `indexedThrough` is in the index; none after it is.
            -- Moved in the same transaction as the lines it covers, so a crash mid-batch
            -- leaves both as they were and indexing resumes where it stopped.
            CREATE TABLE log_index_progress (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                indexedThrough INTEGER NOT NULL
            );
            INSERT INTO log_index_progress (id, indexedThrough) VALUES (1, 0);

            -- A line leaves the index with its row, but only if it had reached the index:
            -- FTS5 cannot take out words it never took in.
            CREATE TRIGGER device_logs_unindexed AFTER DELETE ON device_logs
            WHEN old.id <= (SELECT indexedThrough FROM log_index_progress) BEGIN
                INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
            END;
            CREATE TRIGGER device_logs_reindexed AFTER UPDATE OF message ON device_logs
            WHEN old.id <= (SELECT indexedThrough FROM log_index_progress) BEGIN
                INSERT INTO device_log_search(device_log_search, rowid, message) VALUES ('delete', old.id, old.message);
                INSERT INTO device_log_search(rowid, message) VALUES (new.id, new.message);
            END;

            -- Each app's share of the log store, kept by the code that adds and removes lines.
            CREATE TABLE log_usage (
                app TEXT PRIMARY KEY,
                byteCount INTEGER NOT NULL,
                lineCount INTEGER NOT NULL
            ) WITHOUT ROWID;

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
            """, postgres: PostgresLogSchema.logStore),
        plainChecks,
    ]
}
