import Foundation
import Storage

extension Schema {
    /// An id, once given, never names another record. SQLite gives a new row the largest id
    /// plus one, so deleting the newest device (or profile, group, token…) let the next one
    /// take its id: a bookmarked `/devices/42`, a script's saved id or an audit entry's link
    /// then reached a different record, and log lines whose device id had not yet been cleared
    /// would have joined the newcomer. `AUTOINCREMENT` keeps the largest id ever given
    /// (`sqlite_sequence`); SQLite can only add it by rebuilding each table. PostgreSQL's
    /// identity columns never reuse a value.
    static let idsNeverReused = Migration(24, "ids never given to a second record") { connection in
        guard connection.dialect == .sqlite else { return }
        for table in tablesWithRecordIDs {
            try connection.rebuildSQLiteTable(table) { definition in
                guard let range = definition.range(of: "id INTEGER PRIMARY KEY,") else {
                    throw StorageError.invalidQuery("\(table) has no plain integer id to keep")
                }
                return definition.replacingCharacters(in: range, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
            }
        }
    }

    /// Every table whose rows are records with ids of their own (not the full-text index's
    /// shadow tables, nor the one-row tables).
    static let tablesWithRecordIDs = [
        "users", "sessions", "sign_in_failures", "audit_events", "apps", "device_groups", "devices",
        "profiles", "profile_versions", "profile_assignments", "api_tokens", "images",
        "simulator_states", "simulator_events", "device_commands", "device_notes", "app_feedback",
        "device_beacons", "app_config_specs",
    ]
}
