@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// Retention and the settings that drive it: old lines go in small batches with their apps'
/// usage and a note of what went; admins set the cap and the days, with a message beside a
/// wrong value and nothing changed.
@Suite struct LogRetentionTests {
    typealias Seed = LogViewerTests

    /// Stores `lines` as if received `daysAgo` days before the test clock's start.
    static func receive(_ console: TestConsole, _ lines: [LogLine], daysAgo: Double) throws {
        let device = try Seed.seed(console, [])
        try console.services.logs.writeBlocking { connection in
            try LogStore.append(lines, from: LogStore.Uploader(id: device, name: "Clinic iPad 3"),
                                receivedAt: Seed.start.addingTimeInterval(-daysAgo * 86_400), in: connection)
        }
    }

    static func usage(_ console: TestConsole, _ app: String) async throws -> LogUsage? {
        try await console.services.logs.read { try $0.fetch(LogUsage.self, LogQueries.usage(of: [app])) }.first
    }

    @Test func linesOlderThanTheRetentionGoBatchByBatchAndTheRestStay() async throws {
        let console = try await TestConsole.make()
        let old = LogRemoval.batchSize * 2 + 5
        try Self.receive(console, (0..<old).map { Seed.line("Old \($0)") }, daysAgo: 20)
        // The oldest lines have reached the full-text index, the rest not yet: retention takes
        // lines out of both, and leaves the index nothing to take out for those it never held.
        try await console.services.logIndexer.catchUp()
        try Self.receive(console, [Seed.line("Old other", app: "com.example.other")], daysAgo: 15)
        try Self.receive(console, [Seed.line("Recent 1"), Seed.line("Recent other", app: "com.example.other")], daysAgo: 13)
        try Self.receive(console, [Seed.line("Today")], daysAgo: 0)

        let purged = try await console.services.logRetention.purge().purged
        #expect(purged["com.example.clinicnotes"]?.lines == old && purged["com.example.other"]?.lines == 1)
        let left = try await LogExportTests.messages(console)
        #expect(left == ["Recent 1", "Recent other", "Today"])
        #expect(try await Self.usage(console, "com.example.clinicnotes")?.lineCount == 2)
        #expect(try await Self.usage(console, "com.example.clinicnotes")?.byteCount == "Recent 1".utf8.count + "Today".utf8.count)
        let events = try await console.services.logs.read { try $0.fetch(LogEventRecord.query().order(by: "app")) }
        #expect(events.map(\.kind) == [.retention, .retention])
        #expect(events.first?.message.hasPrefix("Retention removed \(old) lines") == true)

        let again = try await console.services.logRetention.purge().purged
        #expect(again.isEmpty)
        #expect(try await LogExportTests.messages(console).count == 3)
        // Once the indexer has caught up, the full-text index holds exactly the lines that are
        // left (FTS5 checks itself against the table).
        try await console.services.logIndexer.catchUp()
        if TestBackend.current == .sqlite {
            try await console.services.logs.write { try $0.execute("INSERT INTO device_log_search(device_log_search, rank) VALUES ('integrity-check', 1)") }
        }
        #expect(try await console.linesFound(searching: "recent OR today") == 3)
    }

    /// On PostgreSQL a day retention has passed goes as a whole partition, its lines taken off
    /// their apps' usage and noted like any other retention; what is left goes line by line.
    @Test(.enabled(if: TestBackend.current == .postgres)) func aPassedDayIsDroppedWholeOnPostgreSQL() async throws {
        let console = try await TestConsole.make()
        let oldDay = Seed.start.addingTimeInterval(-20 * 86_400)
        try console.services.logs.writeBlocking { try LogPartitions.prepare(around: oldDay, in: $0) }
        try Self.receive(console, (0..<30).map { Seed.line("Old \($0)") }, daysAgo: 20)
        try Self.receive(console, [Seed.line("Old other", app: "com.example.other")], daysAgo: 20)
        try Self.receive(console, [Seed.line("Recent 1")], daysAgo: 13)
        let partition = LogPartitions.name(of: LogPartitions.day(containing: oldDay))
        let inPartition = { @Sendable in
            try await console.services.logs.read { try $0.scalar(SQL(verbatim: "SELECT count(*) FROM \(partition)"), as: Int.self) }
        }
        #expect(try await inPartition() == 31, "the old lines are in their day's partition")

        let purged = try await console.services.logRetention.purge().purged
        #expect(purged["com.example.clinicnotes"]?.lines == 30 && purged["com.example.other"]?.lines == 1)
        await #expect(throws: StorageError.self, "the day's partition is gone") { _ = try await inPartition() }
        #expect(try await LogExportTests.messages(console) == ["Recent 1"])
        #expect(try await Self.usage(console, "com.example.clinicnotes")?.lineCount == 1)
        #expect(try await Self.usage(console, "com.example.other")?.lineCount == 0)
        let events = try await console.services.logs.read { try $0.fetch(LogEventRecord.query().order(by: "app")) }
        #expect(events.map(\.kind) == [.retention, .retention])
    }

    @Test func removingADeviceKeepsItsLines() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [Seed.line("Before the wipe")])
        _ = try await console.services.catalog.removeDevice(device, by: .system)
        let lines = try await console.services.logs.read { try $0.fetch(DeviceLogRecord.query()) }
        #expect(lines.map(\.message) == ["Before the wipe"] && lines.first?.deviceID == nil && lines.first?.deviceName == "Clinic iPad 3")
    }

    @Test func adminsSetTheCapAndRetentionAndWrongValuesAreRefusedBesideTheirFields() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ada@example.com", role: .admin)
        try await console.addUser("hal@example.com", role: .helpdesk)
        // Younger than the default 14 days, which the retention service applies as the console starts.
        try Self.receive(console, [Seed.line("Middling")], daysAgo: 10)
        try Self.receive(console, [Seed.line("Fresh")], daysAgo: 1)
        try await console.test { client in
            let helpdesk = Browser(client)
            try await helpdesk.signIn("hal@example.com", password: TestConsole.password)
            #expect(try await helpdesk.get("/settings").status == .forbidden)

            let admin = Browser(client)
            try await admin.signIn("ada@example.com", password: TestConsole.password)
            let page = try await admin.get("/settings")
            #expect(page.body.contains("value=\"200\"") && page.body.contains("value=\"14\""))
            #expect(page.body.contains("id=\"log-usage\""))

            let refused = try await admin.post("/settings", ["logCapMegabytes": "lots", "logRetentionDays": "0"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("value=\"lots\"") && refused.body.contains("value=\"0\""))
            #expect(refused.body.contains("id=\"log-cap-error\">Enter a whole number of megabytes"))
            #expect(refused.body.contains("id=\"log-retention-error\">Enter a whole number of days from 1 to 365."))
            #expect(try await console.services.settings.overview().settings == ConsoleSettings())

            let saved = try await admin.post("/settings", ["logCapMegabytes": "50", "logRetentionDays": "5"])
            #expect(saved.status == .seeOther)
            #expect(try await console.services.settings.overview().settings == ConsoleSettings(logCapBytes: 50 << 20, logRetentionDays: 5))
            let entry = try await console.services.database.read { try $0.fetchOne(AuditEvent.query().filter("action", .equal, "settings.updated")) }
            #expect(entry?.before == "Organisation name: none; demo stories hidden; log cap per app 200 MB; logs kept 14 days; devices check in every 15 min")
            #expect(entry?.after == "Organisation name: none; demo stories hidden; log cap per app 50 MB; logs kept 5 days; devices check in every 15 min")

            _ = try await admin.get("/settings")
            let purged = try await admin.post("/settings/retention")
            #expect(purged.status == .seeOther)
            #expect(try await LogExportTests.messages(console) == ["Fresh"])
            let after = try await admin.get("/settings")
            #expect(after.body.contains("Removed 1 line"))
            #expect(after.body.contains("Retention removed 1 line"))
            // Removing lines on a person's word is theirs in the audit log, as a deletion is.
            let purge = try await console.services.database.read { try $0.fetchOne(AuditEvent.query().filter("action", .equal, "logs.purged")) }
            #expect(purge?.actorEmail == "ada@example.com")
            #expect(purge?.after?.hasPrefix("Removed 1 line (") == true && purge?.after?.hasSuffix(" bytes) from 1 app.") == true)
        }
    }
}
