import Storage

extension Schema {
    static let logIndexing = Migration(11, "log lines are indexed a batch at a time by the code that adds them", sqlite: """
        -- A trigger indexed each line as it was inserted. FTS5 flushes its in-memory index at
        -- every statement savepoint, and each trigger run is one, so a batch of 500 lines
        -- wrote 500 tiny index segments and merged them: the index took four fifths of an
        -- upload's time (Benchmarks/README.md, "The log store"). LogStore.append now adds a
        -- batch's lines to the index with one INSERT … SELECT in the same transaction, so the
        -- index is as current as before. Deletions keep their trigger.
        DROP TRIGGER device_logs_indexed;
        """, postgres: PostgresSchema.logIndexing)
}
