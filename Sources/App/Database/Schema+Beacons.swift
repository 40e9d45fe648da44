import Storage

extension Schema {
    static let beacons = Migration(16, "the last status beacon of each device", sqlite: """
        -- One row per device: the last beacon replaces the one before. Its compliance is a
        -- column of its own so the device list reads it without parsing the JSON.
        CREATE TABLE device_beacons (
            id INTEGER PRIMARY KEY,
            deviceID INTEGER NOT NULL UNIQUE REFERENCES devices(id) ON DELETE CASCADE,
            sentAt REAL NOT NULL,
            compliance TEXT NOT NULL CHECK (compliance IN ('compliant', 'blocked', 'wiped')),
            beacon TEXT NOT NULL
        );
        """, postgres: PostgresSchema.beacons)
}
