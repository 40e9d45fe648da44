import Foundation
import Storage

/// The console settings page's reads and its one write (audited).
struct SettingsStore: Sendable {
    let database: Database
    /// The log store's file: its usage and events.
    let logs: Database
    let now: @Sendable () -> Date

    /// The settings, and the log store as the page shows it: every app's usage (largest first),
    /// the latest log events, and the catalog's app names.
    struct Overview: Sendable {
        let settings: ConsoleSettings
        let usage: [LogUsage]
        let events: [LogEventRecord]
        let apps: [AppRecord]
    }

    func overview() async throws -> Overview {
        let (usage, events) = try await logs.read { connection in
            (try connection.fetch(LogUsage.self, LogQueries.usage(of: nil, atLeast: 0)),
             try connection.fetch(LogEventRecord.query().order(by: "id", .descending).limit(20)))
        }
        return try await database.read { connection in
            Overview(settings: try ConsoleSettings.load(from: connection), usage: usage, events: events,
                     apps: try connection.fetch(AppRecord.query().order(by: "name")))
        }
    }

    func save(_ settings: ConsoleSettings, by actor: Actor) async throws {
        try await database.write { connection in
            let before = try ConsoleSettings.load(from: connection)
            guard before != settings else { return }
            try settings.save(in: connection)
            try connection.audit(.settingsUpdated, subject: "console settings", by: actor,
                                 before: before.auditText, after: settings.auditText, at: now())
        }
    }
}

extension ConsoleSettings {
    var auditText: String {
        "Organisation name: \(organisationName.isEmpty ? "none" : organisationName); demo stories \(showsDemoStories ? "shown" : "hidden"); "
            + "log cap per app \(ByteCountText.megabytes(logCapBytes)); logs kept \(logRetentionDays) days; "
            + "devices check in every \(checkInIntervalMinutes) min"
    }
}
