import Storage

extension Schema {
    static let logStoreMoved = Migration(21, "the log store moved to its own database file", sqlite: """
        -- Uploads, their index merges and retention now write the log store's own file
        -- (LogSchema), so they never queue the console's other writes. `LogStoreMove` copied
        -- these tables' rows there before this runs; the console's file keeps the settings.
        DROP TRIGGER IF EXISTS device_logs_unindexed;
        DROP TRIGGER IF EXISTS device_logs_reindexed;
        DROP TABLE IF EXISTS device_log_search;
        DROP TABLE IF EXISTS device_logs;
        DROP TABLE IF EXISTS log_usage;
        DROP TABLE IF EXISTS log_events;
        """, postgres: PostgresSchema.logStoreMoved)
}
