import Storage

/// Every schema change the console has made, oldest first. A migration is never edited once it
/// has shipped: later changes are new entries at the end.
enum Schema {
    static let migrations: [Migration] = [
        Migration(1, "accounts, sessions and the audit log", sql: """
            CREATE TABLE users (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                passwordHash TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('admin', 'helpdesk', 'viewer')),
                mustChangePassword INTEGER NOT NULL DEFAULT 0,
                createdAt REAL NOT NULL,
                lastSignInAt REAL
            );

            -- Only a SHA-256 of the cookie token is stored, so a copy of the database
            -- cannot be used to take over a session.
            CREATE TABLE sessions (
                id INTEGER PRIMARY KEY,
                tokenHash TEXT NOT NULL UNIQUE,
                userID INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                csrfToken TEXT NOT NULL,
                createdAt REAL NOT NULL,
                expiresAt REAL NOT NULL,
                lastSeenAt REAL NOT NULL
            );
            CREATE INDEX sessions_by_user ON sessions(userID);
            CREATE INDEX sessions_by_expiry ON sessions(expiresAt);

            -- Counted per email address whether or not an account exists, so the
            -- throttle itself tells an attacker nothing.
            CREATE TABLE sign_in_failures (
                id INTEGER PRIMARY KEY,
                email TEXT NOT NULL UNIQUE,
                failureCount INTEGER NOT NULL,
                lastFailureAt REAL NOT NULL
            );

            CREATE TABLE audit_events (
                id INTEGER PRIMARY KEY,
                occurredAt REAL NOT NULL,
                actorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                actorEmail TEXT NOT NULL,
                action TEXT NOT NULL,
                subject TEXT NOT NULL,
                before TEXT,
                after TEXT
            );
            CREATE INDEX audit_events_by_time ON audit_events(occurredAt DESC, id DESC);
            """),
    ]
}
