extension PostgresSchema {
    /// Migration 23: background jobs claimed by one console at a time.
    static let jobLeases = """
        CREATE TABLE job_leases (
            job text PRIMARY KEY,
            holder text,
            leaseUntil timestamptz,
            nextDueAt timestamptz,
            lastStartedAt timestamptz,
            lastFinishedAt timestamptz,
            lastOutcome text NOT NULL DEFAULT '',
            lastHolder text NOT NULL DEFAULT '',
            runs bigint NOT NULL DEFAULT 0 CHECK (runs >= 0)
        );
        """
}
