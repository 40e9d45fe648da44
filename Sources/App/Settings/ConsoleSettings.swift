import Storage

/// The settings an admin changes for the whole console, stored one value per key in
/// `settings`; a key never set has its default.
struct ConsoleSettings: Equatable, Sendable {
    /// Each app's share of the log store.
    var logCapBytes = 200 << 20
    /// Lines older than this are purged.
    var logRetentionDays = 14

    struct Row: Codable {
        let key: String
        let value: String
    }

    static func load(from connection: Connection) throws -> ConsoleSettings {
        let rows = try connection.fetch(Row.self, "SELECT key, value FROM settings")
        let values = Dictionary(uniqueKeysWithValues: rows.map { ($0.key, $0.value) })
        var settings = ConsoleSettings()
        if let cap = values["logCapBytes"].flatMap(Int.init) { settings.logCapBytes = cap }
        if let days = values["logRetentionDays"].flatMap(Int.init) { settings.logRetentionDays = days }
        return settings
    }

    func save(in connection: Connection) throws {
        for (key, value) in [("logCapBytes", String(logCapBytes)), ("logRetentionDays", String(logRetentionDays))] {
            try connection.execute("INSERT INTO settings (key, value) VALUES (\(key), \(value)) ON CONFLICT (key) DO UPDATE SET value = excluded.value")
        }
    }
}
