import Storage

/// How much the console holds, and what happened last: the dashboard's figures, in one snapshot.
struct ConsoleFigures: Sendable {
    let users: Int
    let devices: Int
    let groups: Int
    let apps: Int
    let profiles: Int
    /// The latest ten audit entries, newest first.
    let recentEvents: [AuditEvent]
    /// Apps whose logs fill three quarters of their cap or more, fullest first, with the catalog's names.
    let capWarnings: [LogCapWarning]
    let appNames: [String: String]

    static func load(from database: Database) async throws -> ConsoleFigures {
        try await database.read { connection in
            ConsoleFigures(
                users: try connection.count(User.query()),
                devices: try connection.count(DeviceRecord.query()),
                groups: try connection.count(DeviceGroupRecord.query()),
                apps: try connection.count(AppRecord.query()),
                profiles: try connection.count(ProfileRecord.query()),
                recentEvents: try connection.fetch(AuditEvent.query().order(by: "occurredAt", .descending).order(by: "id", .descending).limit(10)),
                capWarnings: try LogCapWarning.for(apps: nil, in: connection),
                appNames: try connection.fetch(AppRecord.query()).namesByBundleID)
        }
    }
}
