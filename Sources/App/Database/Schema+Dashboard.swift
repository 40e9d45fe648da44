import Storage

extension Schema {
    static let dashboard = Migration(13, "the tour's progress per person and the last day's crashes for the fleet health strip", sqlite: """
        -- Where each person is in the demo tour: the steps they marked done (a JSON array of
        -- step ids) and when they first saw it, so a demo start shows it once on sign-in.
        CREATE TABLE tour_progress (
            userID INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
            doneSteps TEXT NOT NULL DEFAULT '[]',
            seenAt REAL NOT NULL
        ) WITHOUT ROWID;

        -- The dashboard counts crash groups seen in the last day: crash lines by time, with
        -- what groups them, so the count reads a day's crashes from this index alone.
        CREATE INDEX device_logs_crash_times ON device_logs(loggedAt, app, signature) WHERE kind = 'crash';
        """, postgres: PostgresSchema.dashboard)
}
