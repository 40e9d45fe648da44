import Domain
import Foundation
import Storage

/// Everything the dashboard shows, read in one snapshot: how much there is, the fleet's
/// health, what people changed lately, and — in a demo console — where its stories live.
struct ConsoleFigures: Sendable {
    let users: Int
    let devices: Int
    let groups: Int
    let apps: Int
    let profiles: Int
    /// The latest changes, newest first, sign-ins left out; enough to fill the feed's lines
    /// after runs of the same change are grouped.
    let recentEvents: [AuditEvent]
    /// Apps whose logs fill three quarters of their cap or more, fullest first, with the catalog's names.
    let capWarnings: [LogCapWarning]
    let appNames: [String: String]
    let health: FleetHealth
    /// nil unless the settings show the demo's stories.
    let stories: DemoStoryLinks?

    static let eventsRead = 200

    static func load(from database: Database, logs: Database, contents: ProfileContentCache, now: Date, role: Role) async throws -> ConsoleFigures {
        // Log storage is for those who read logs; viewers' dashboards skip its reads.
        let readsLogs = role.includes(.helpdesk)
        let settings = try await database.readSingleStatement { try ConsoleSettings.load(from: $0) }
        let logFigures = readsLogs ? try await LogFigures.load(from: logs, capBytes: settings.logCapBytes, now: now) : nil
        return try await database.read { connection in
            let capWarnings = logFigures?.capWarnings ?? []
            return ConsoleFigures(
                users: try connection.count(User.query()),
                devices: try connection.count(DeviceRecord.query()),
                groups: try connection.count(DeviceGroupRecord.query()),
                apps: try connection.count(AppRecord.query()),
                profiles: try connection.count(ProfileRecord.query()),
                recentEvents: try connection.fetch(AuditEvent.query().filter("action NOT IN (\(list: ActivityFeed.hidden.map(\.rawValue)))")
                    .order(by: "occurredAt", .descending).order(by: "id", .descending).limit(eventsRead)),
                capWarnings: capWarnings,
                appNames: readsLogs ? try connection.fetch(AppRecord.query()).namesByBundleID : [:],
                health: try FleetHealth.load(in: connection, contents: contents, now: now, logFigures: logFigures, isAdmin: role.includes(.admin)),
                stories: settings.showsDemoStories ? try DemoStoryLinks.load(in: connection) : nil)
        }
    }
}
