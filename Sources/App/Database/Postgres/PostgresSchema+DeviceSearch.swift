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
        -- installs it without a superuser.
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        \(trigramIndexes([
            ("devices_name_trigrams", "lower(name)"), ("devices_owner_trigrams", "lower(owner)"),
            ("devices_serialNumber_trigrams", "lower(serialNumber)"), ("devices_udid_trigrams", "lower(udid)"),
        ]))
        """

    /// GIN trigram indexes on `devices`, one per (name, expression). An extension exists once
    /// per database, in the schema that first installed it, which need not be on this
    /// console's search path, so its operator class is named with that schema.
    static func trigramIndexes(_ indexes: [(name: String, expression: String)]) -> String {
        let creates = indexes.map { index in
            "    EXECUTE format('CREATE INDEX \(index.name) ON devices USING gin (\(index.expression) %s)', trigrams);"
        }
        return """
            DO $$
            DECLARE
                trigrams text := (SELECT format('%I.gin_trgm_ops', n.nspname)
                                  FROM pg_extension AS e JOIN pg_namespace AS n ON n.oid = e.extnamespace
                                  WHERE e.extname = 'pg_trgm');
            BEGIN
            \(creates.joined(separator: "\n"))
            END
            $$;
            """
    }
}
