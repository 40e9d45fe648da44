extension PostgresSchema {
    /// Migration 19: device search inside names, owners, serial numbers and UDIDs. Its index of
    /// a device's lines by time belongs to the log store.
    ///
    /// SQLite keeps an FTS5 trigram table in step with `devices` by triggers; PostgreSQL's
    /// trigram indexes (pg_trgm) sit on the table itself, so there is nothing to keep in step.
    /// A search is `lower(column) LIKE '%' || <lower-cased, LIKE-escaped text> || '%'`, one
    /// condition per column joined by OR, each answered by its index.
    static let helpdeskFinding = """
        -- pg_trgm is trusted (PostgreSQL 13 and later): a role that may create in this database
        -- installs it without a superuser. An extension exists once per database, in the schema
        -- that first installed it, which need not be on this console's search path, so its
        -- operator class is named with that schema.
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        DO $$
        DECLARE
            trigrams text := (SELECT format('%I.gin_trgm_ops', n.nspname)
                              FROM pg_extension AS e JOIN pg_namespace AS n ON n.oid = e.extnamespace
                              WHERE e.extname = 'pg_trgm');
        BEGIN
            EXECUTE format('CREATE INDEX devices_name_trigrams ON devices USING gin (lower(name) %s)', trigrams);
            EXECUTE format('CREATE INDEX devices_owner_trigrams ON devices USING gin (lower(owner) %s)', trigrams);
            EXECUTE format('CREATE INDEX devices_serialNumber_trigrams ON devices USING gin (lower(serialNumber) %s)', trigrams);
            EXECUTE format('CREATE INDEX devices_udid_trigrams ON devices USING gin (lower(udid) %s)', trigrams);
        END
        $$;
        """
}
