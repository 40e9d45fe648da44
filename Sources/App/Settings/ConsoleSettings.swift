import Storage

/// The settings an admin changes for the whole console, stored one value per key in
/// `settings`; a key never set has its default.
package struct ConsoleSettings: Equatable, Sendable {
    /// Each app's share of the log store.
    package var logCapBytes = 200 << 20
    /// Lines older than this are purged.
    var logRetentionDays = 14
    /// Exported profiles' PayloadOrganization, which devices show beside a profile; empty
    /// leaves the key out.
    var organisationName = ""
    /// The dashboard's story tiles and the tour: on in a console seeded with `--demo`.
    var showsDemoStories = false
    /// How often devices are expected to check in: the device page says when a device should
    /// answer what is queued for it, and when it is overdue (`CheckInExpectation`).
    var checkInIntervalMinutes = 15

    static let checkInIntervalRange = 1...1440

    /// One row per key: `key`, `value`.
    static let tableName = "settings"

    static let maximumOrganisationName = 100

    struct Row: Codable {
        let key: String
        let value: String
    }

    package static func load(from connection: Connection) throws -> ConsoleSettings {
        let rows = try connection.fetch(Row.self, "SELECT key, value FROM settings")
        let values = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.value) })
        var settings = ConsoleSettings()
        if let cap = values["logCapBytes"].flatMap(Int.init) { settings.logCapBytes = cap }
        if let days = values["logRetentionDays"].flatMap(Int.init) { settings.logRetentionDays = days }
        if let name = values["organisationName"] { settings.organisationName = name }
        settings.showsDemoStories = values["showsDemoStories"] == "1"
        if let minutes = values["checkInIntervalMinutes"].flatMap(Int.init), checkInIntervalRange.contains(minutes) {
            settings.checkInIntervalMinutes = minutes
        }
        return settings
    }

    package func save(in connection: Connection) throws {
        let values = [("logCapBytes", String(logCapBytes)), ("logRetentionDays", String(logRetentionDays)),
                      ("organisationName", organisationName), ("showsDemoStories", showsDemoStories ? "1" : "0"),
                      ("checkInIntervalMinutes", String(checkInIntervalMinutes))]
        for (key, value) in values {
            try connection.execute("INSERT INTO settings (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        }
    }
}
