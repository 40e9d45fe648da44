import Storage

extension Schema {
    static let appConfigSpecs = Migration(17, "each app's AppConfig specfile, read into typed keys", sqlite: """
        -- One per app, replaced by the next upload; the keys are kept as read (JSON), with
        -- the file's name and revision for the page that shows them.
        CREATE TABLE app_config_specs (
            id INTEGER PRIMARY KEY,
            bundleID TEXT NOT NULL UNIQUE,
            fileName TEXT NOT NULL,
            spec TEXT NOT NULL,
            importedAt REAL NOT NULL,
            importedBy TEXT NOT NULL
        );
        """, postgres: PostgresSchema.appConfigSpecs)
}
