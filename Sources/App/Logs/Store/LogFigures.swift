import Foundation
import Storage

/// What the dashboard and a device's page show about the log store: apps near their cap and
/// crash groups of the last day, read from the log store's file.
struct LogFigures: Sendable {
    var capWarnings: [LogCapWarning] = []
    var crashGroupsLastDay = 0

    /// `capBytes` is the console's setting, read by the caller from the console's file.
    static func load(from logs: Database, apps: [String]? = nil, capBytes: Int, now: Date) async throws -> LogFigures {
        try await logs.read { connection in
            LogFigures(capWarnings: try LogCapWarning.for(apps: apps, capBytes: capBytes, in: connection),
                       crashGroupsLastDay: try connection.scalar(LogQueries.crashGroupCount(since: now.addingTimeInterval(-86_400), dialect: connection.dialect), as: Int.self) ?? 0)
        }
    }
}
