import Storage

/// Every schema change the console has made, oldest first. A migration is never edited once it
/// has shipped: later changes are new entries at the end. Each later one lives in a file of its
/// own beside this one (`Schema+<what it adds>.swift`).
enum Schema {
    static let migrations: [Migration] = [
        Migration(1, "accounts, sessions and the audit log", sqlite: """
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
            """, postgres: PostgresSchema.accounts),
        Migration(2, "the catalog: apps, device groups and devices", sqlite: """
            CREATE TABLE apps (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                bundleID TEXT NOT NULL UNIQUE,
                isManaged INTEGER NOT NULL,
                isSDKBuilt INTEGER NOT NULL,
                hasAssessmentEntitlement INTEGER NOT NULL,
                iconColor TEXT NOT NULL,
                createdAt REAL NOT NULL
            );
            CREATE INDEX apps_by_name ON apps(name COLLATE NOCASE, id);

            -- A group still holding devices or subgroups cannot be deleted (RESTRICT): the
            -- admin moves them first, so no device silently loses its policy.
            CREATE TABLE device_groups (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                parentID INTEGER REFERENCES device_groups(id) ON DELETE RESTRICT,
                createdAt REAL NOT NULL
            );
            CREATE INDEX device_groups_by_parent ON device_groups(parentID);

            CREATE TABLE devices (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                model TEXT NOT NULL CHECK (model IN ('iPad', 'iPhone')),
                osVersion TEXT NOT NULL,
                serialNumber TEXT NOT NULL UNIQUE,
                udid TEXT NOT NULL UNIQUE,
                isSupervised INTEGER NOT NULL,
                owner TEXT NOT NULL,
                groupID INTEGER REFERENCES device_groups(id) ON DELETE RESTRICT,
                installedApps TEXT NOT NULL,
                enrolledAt REAL NOT NULL,
                lastCheckInAt REAL
            );
            -- Keyset pagination walks (name, id); group pages filter first.
            CREATE INDEX devices_by_name ON devices(name COLLATE NOCASE, id);
            CREATE INDEX devices_by_group ON devices(groupID, name COLLATE NOCASE, id);
            """, postgres: PostgresSchema.catalog),
        Migration(3, "profiles, their immutable versions and group assignments", sqlite: """
            -- `version` is the number of the latest version: a save names the version it
            -- started from and is refused when someone saved in between.
            CREATE TABLE profiles (
                id INTEGER PRIMARY KEY,
                identifier TEXT NOT NULL UNIQUE,
                name TEXT NOT NULL,
                version INTEGER NOT NULL,
                payloadUUIDs TEXT NOT NULL,
                createdAt REAL NOT NULL,
                updatedAt REAL NOT NULL
            );
            CREATE INDEX profiles_by_name ON profiles(name COLLATE NOCASE, id);

            CREATE TABLE profile_versions (
                id INTEGER PRIMARY KEY,
                profileID INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                number INTEGER NOT NULL,
                uuid TEXT NOT NULL UNIQUE,
                content TEXT NOT NULL,
                note TEXT NOT NULL,
                authorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
                authorEmail TEXT NOT NULL,
                createdAt REAL NOT NULL,
                UNIQUE (profileID, number)
            );

            CREATE TABLE profile_assignments (
                id INTEGER PRIMARY KEY,
                profileID INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
                groupID INTEGER NOT NULL REFERENCES device_groups(id) ON DELETE CASCADE,
                assignedAt REAL NOT NULL,
                assignedBy TEXT NOT NULL,
                UNIQUE (profileID, groupID)
            );
            CREATE INDEX profile_assignments_by_group ON profile_assignments(groupID);
            """, postgres: PostgresSchema.profiles),
        Migration(4, "API tokens for scripts", sqlite: """
            -- Like sessions, only a SHA-256 of the token is kept; the token is shown once.
            CREATE TABLE api_tokens (
                id INTEGER PRIMARY KEY,
                name TEXT NOT NULL,
                tokenHash TEXT NOT NULL UNIQUE,
                role TEXT NOT NULL CHECK (role IN ('admin', 'helpdesk', 'viewer')),
                createdBy TEXT NOT NULL,
                createdAt REAL NOT NULL,
                lastUsedAt REAL,
                revokedAt REAL
            );
            """, postgres: PostgresSchema.apiTokens),
        Migration(5, "uploaded images for branding", sqlite: """
            -- Images are immutable: a payload refers to one by key, and a new upload is a new row.
            CREATE TABLE images (
                id INTEGER PRIMARY KEY,
                key TEXT NOT NULL UNIQUE,
                mediaType TEXT NOT NULL,
                width INTEGER NOT NULL,
                height INTEGER NOT NULL,
                byteCount INTEGER NOT NULL,
                bytes BLOB NOT NULL,
                uploadedBy TEXT NOT NULL,
                createdAt REAL NOT NULL
            );
            """, postgres: PostgresSchema.images),
        Migration(6, "payload kinds on profiles, so the list needs no version JSON", sqlite: """
            ALTER TABLE profiles ADD COLUMN payloadKinds TEXT NOT NULL DEFAULT '[]';
            """, postgres: PostgresSchema.payloadKinds),
        Migration(7, "device tokens, simulator state, commands and the log store", sqlite: """
            -- Devices authenticate check-ins with a token; only its SHA-256 is kept.
            ALTER TABLE devices ADD COLUMN tokenHash TEXT;
            CREATE UNIQUE INDEX devices_by_token ON devices(tokenHash) WHERE tokenHash IS NOT NULL;

            -- Bumped by triggers on everything an effective policy is computed from, so the
            -- check-in cache can tell in one read whether its answers are still good, whoever
            -- made the change (pages, API, command line).
            CREATE TABLE policy_generation (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
            INSERT INTO policy_generation VALUES (1, 0);
            CREATE TRIGGER policy_bump_assign AFTER INSERT ON profile_assignments
                BEGIN UPDATE policy_generation SET value = value + 1; END;
            CREATE TRIGGER policy_bump_unassign AFTER DELETE ON profile_assignments
                BEGIN UPDATE policy_generation SET value = value + 1; END;
            CREATE TRIGGER policy_bump_version AFTER UPDATE OF version ON profiles
                BEGIN UPDATE policy_generation SET value = value + 1; END;
            CREATE TRIGGER policy_bump_nesting AFTER UPDATE OF parentID ON device_groups
                BEGIN UPDATE policy_generation SET value = value + 1; END;
            CREATE TRIGGER policy_bump_group_gone AFTER DELETE ON device_groups
                BEGIN UPDATE policy_generation SET value = value + 1; END;

            -- What a simulated device remembers (JSON of Domain's SimulatedDevice) and the
            -- policy tag it last applied.
            CREATE TABLE simulator_states (
                id INTEGER PRIMARY KEY,
                deviceID INTEGER NOT NULL UNIQUE REFERENCES devices(id) ON DELETE CASCADE,
                state TEXT NOT NULL,
                appliedTag TEXT NOT NULL DEFAULT '',
                installedProfiles TEXT NOT NULL DEFAULT '{}',
                revision INTEGER NOT NULL DEFAULT 0,
                updatedAt REAL NOT NULL
            );

            CREATE TABLE simulator_events (
                id INTEGER PRIMARY KEY,
                deviceID INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                deviceTime REAL NOT NULL,
                recordedAt REAL NOT NULL,
                action TEXT NOT NULL,
                rule TEXT NOT NULL,
                result TEXT NOT NULL CHECK (result IN ('done', 'refused', 'blocked', 'ignored')),
                message TEXT NOT NULL
            );
            CREATE INDEX simulator_events_by_device ON simulator_events(deviceID, id DESC);

            -- MDM-style commands: queued, then acknowledged, error or not now.
            CREATE TABLE device_commands (
                id INTEGER PRIMARY KEY,
                uuid TEXT NOT NULL UNIQUE,
                deviceID INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
                requestType TEXT NOT NULL,
                parameters TEXT NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('queued', 'acknowledged', 'error', 'notNow')),
                queuedAt REAL NOT NULL,
                queuedBy TEXT NOT NULL,
                completedAt REAL,
                resultSummary TEXT NOT NULL DEFAULT '',
                result TEXT
            );
            CREATE INDEX device_commands_by_device ON device_commands(deviceID, id DESC);
            CREATE INDEX device_commands_queued ON device_commands(deviceID, id) WHERE status IN ('queued', 'notNow');

            -- Uploaded app and crash logs. They outlive the device (an enterprise wipe keeps
            -- them), so the device's name is copied in.
            CREATE TABLE device_logs (
                id INTEGER PRIMARY KEY,
                deviceID INTEGER REFERENCES devices(id) ON DELETE SET NULL,
                deviceName TEXT NOT NULL,
                app TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('application', 'crash')),
                level TEXT NOT NULL CHECK (level IN ('error', 'warning', 'information', 'debug')),
                message TEXT NOT NULL,
                loggedAt REAL NOT NULL,
                receivedAt REAL NOT NULL
            );
            CREATE INDEX device_logs_by_device ON device_logs(deviceID, id DESC);
            CREATE INDEX device_logs_by_app ON device_logs(app, level, id DESC);
            """, postgres: PostgresSchema.deviceTokensAndCommands),
        logStore,
        deviceList,
        helpdesk,
        logIndexing,
        logSearchSpeed,
        dashboard,
        organisation,
        auditFilters,
        beacons,
        appConfigSpecs,
        appRoles,
        helpdeskFinding,
        noteAuthors,
        logStoreMoved,
        signingIdentity,
        jobLeases,
        idsNeverReused,
        deviceSearchFolding,
        commandQueue,
        mdm,
        enrollmentRevocation,
        mdmPolicy,
        appDelivery,
    ]
}
