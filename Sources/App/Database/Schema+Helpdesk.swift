import Storage

extension Schema {
    static let helpdesk = Migration(10, "device notes and the history of managed app feedback", sqlite: """
        -- What helpdesk and admins write about a device, in Markdown. The author's address is
        -- copied so a note still names its author after the account is removed.
        CREATE TABLE device_notes (
            id INTEGER PRIMARY KEY,
            deviceID INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            authorID INTEGER REFERENCES users(id) ON DELETE SET NULL,
            authorEmail TEXT NOT NULL,
            body TEXT NOT NULL,
            createdAt REAL NOT NULL,
            updatedAt REAL NOT NULL
        );
        CREATE INDEX device_notes_by_device ON device_notes(deviceID, id DESC);

        -- Every fetch of an app's managed feedback (com.apple.feedback.managed), as the app
        -- wrote it (a JSON object): the latest is the newest row per device and app, the rest
        -- its history. A device's feedback goes with the device, as an enterprise wipe takes it.
        CREATE TABLE app_feedback (
            id INTEGER PRIMARY KEY,
            deviceID INTEGER NOT NULL REFERENCES devices(id) ON DELETE CASCADE,
            app TEXT NOT NULL,
            feedback TEXT NOT NULL,
            fetchedAt REAL NOT NULL,
            commandID INTEGER REFERENCES device_commands(id) ON DELETE SET NULL,
            wasReset INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX app_feedback_by_device ON app_feedback(deviceID, app, id DESC);
        INSERT INTO app_feedback (deviceID, app, feedback, fetchedAt, commandID, wasReset)
            SELECT c.deviceID, reported.key, reported.value, c.completedAt, c.id, coalesce(json_extract(c.parameters, '$.deleteFeedback'), 0)
            FROM device_commands AS c, json_each(c.result) AS reported
            WHERE c.requestType = 'ManagedApplicationFeedback' AND c.status = 'acknowledged' AND c.result IS NOT NULL
            ORDER BY c.id;
        """, postgres: PostgresSchema.helpdesk)
}
