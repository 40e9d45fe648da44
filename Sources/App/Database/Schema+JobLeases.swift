import Storage

extension Schema {
    static let jobLeases = Migration(23, "background jobs claimed by one console at a time", sqlite: """
        -- One row per background job (`JobLeases`): which console holds the current run and
        -- until when its claim lasts, when the next run is due, and how the last one went.
        CREATE TABLE job_leases (
            job TEXT PRIMARY KEY,
            holder TEXT,
            leaseUntil REAL,
            nextDueAt REAL,
            lastStartedAt REAL,
            lastFinishedAt REAL,
            lastOutcome TEXT NOT NULL DEFAULT '',
            lastHolder TEXT NOT NULL DEFAULT '',
            runs INTEGER NOT NULL DEFAULT 0 CHECK (runs >= 0)
        );
        """, postgres: PostgresSchema.jobLeases)
}
