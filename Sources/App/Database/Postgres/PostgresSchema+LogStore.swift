extension PostgresSchema {
    /// Migration 11, which only changed how the log table's full-text index is kept.
    static let logIndexing = """
        -- Nothing to do: on PostgreSQL the log store's tables never live in the console's
        -- schema (LogSchema builds them), and this migration only changed their index.
        """

    /// Migration 12, which only rebuilt the log table's full-text index and crash index.
    static let logSearchSpeed = """
        -- Nothing to do: on PostgreSQL the log store's tables never live in the console's
        -- schema (LogSchema builds them), and this migration only rebuilt their indexes.
        """

    /// Migration 21, which moved the log store's tables out of the console's database file.
    static let logStoreMoved = """
        -- Nothing to do: on PostgreSQL the log store's tables were never built in the
        -- console's schema, so there is nothing to move out of it.
        """
}
