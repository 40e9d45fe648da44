@testable import App
import Domain
import Foundation
import Signing
import Storage
import Testing

/// `payload-console copy`: a demo console's SQLite files into an empty PostgreSQL schema, and a
/// console started there finds everything where it was.
@Suite(.enabled(if: TestBackend.current == .sqlite && TestBackend.server != nil)) struct DatabaseCopyTests {
    @Test func aDemoConsoleCopiedToPostgreSQLServesTheSameFleetAndRefusesASecondCopy() async throws {
        let source = try await TestConsole.make(demo: true)
        try await source.services.logIndexer.catchUp()
        let signedBy = try await source.services.signing.current().identity.sha256Fingerprint
        let sourcePath = source.services.config.databasePath
        // The newest group, created and deleted: its id was given and must stay given.
        let deleted = try await source.services.database.write { connection in
            let group = try connection.insert(DeviceGroupRecord(name: "Short-lived", parentID: nil, createdAt: Date()))
            try connection.delete(DeviceGroupRecord.self, id: group.id)
            return group.id
        }
        let target = try TestBackend.postgres.consoleDatabase(in: "")
        let lines = LogLinesSeen()
        let copy = try DatabaseCopy.prepare(from: sourcePath, to: target) { lines.add($0) }
        let summary = try await copy.run()

        #expect(summary.rows["users"] == 3)
        #expect(summary.rows["signing_identity"] == 1)
        #expect(summary.rows["device_logs"] ?? 0 > 1_000)
        #expect(lines.count > 0, "it shows its progress")

        var config = source.services.config
        config.databasePath = target
        config.demo = false
        let copied = try await buildConsole(config: config)
        // PostgreSQL plans the copied tables from their real sizes at once, not after
        // autovacuum's first round.
        let analyzed = try await copied.services.database.read { connection in
            try connection.scalar("SELECT count(*) FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname IN ('devices', 'profiles', 'audit_events') AND last_analyze IS NOT NULL", as: Int.self)
        }
        #expect(analyzed == 3)

        for table in ["users", "devices", "profiles", "profile_versions", "audit_events", "device_logs", "log_usage"] {
            let count = SQL(verbatim: "SELECT count(*) FROM \(table)")
            let database = table.hasPrefix("device_logs") || table == "log_usage"
            let expected = try await (database ? source.services.logs : source.services.database).read { try $0.scalar(count, as: Int.self) }
            let found = try await (database ? copied.services.logs : copied.services.database).read { try $0.scalar(count, as: Int.self) }
            #expect(found == expected, "\(table)")
        }
        let profile = try await source.services.database.read { try $0.fetchOne(ProfileRecord.query().order(by: "id")) }
        let same = try await copied.services.database.read { try $0.find(ProfileRecord.self, id: profile!.id) }
        #expect(same?.name == profile?.name && same?.updatedAt == profile?.updatedAt, "ids and moments kept")
        #expect(try await copied.services.signing.current().identity.sha256Fingerprint == signedBy, "it signs with the same certificate")

        // New rows get ids after the copied ones.
        let newest = try await copied.services.database.read { try $0.scalar("SELECT max(id) FROM users", as: Int64.self) } ?? 0
        let (added, _) = try await copied.services.accounts.createUser(email: "after-copy@example.com", role: .viewer, password: TestConsole.password, by: .system)
        #expect(added.id.rawValue > newest)
        let nextGroup = try await copied.services.database.write { try $0.insert(DeviceGroupRecord(name: "After the copy", parentID: nil, createdAt: Date())) }
        #expect(nextGroup.id.rawValue > deleted.rawValue, "an id the SQLite console gave and deleted is not given again")

        // The copied lines are found by the same searches.
        var filter = LogFilter()
        filter.searchText = "geofence"
        filter.search = try LogSearch("geofence")
        let before = try await source.services.logReader.rows(filter, limit: 1_000).rows.map(\.line.id)
        let after = try await copied.services.logReader.rows(filter, limit: 1_000).rows.map(\.line.id)
        #expect(!before.isEmpty && after == before)

        do {
            _ = try await DatabaseCopy.prepare(from: sourcePath, to: target) { _ in }.run()
            Issue.record("a second copy into the same target must be refused")
        } catch let refusal as DatabaseCopy.Refusal {
            #expect(refusal.description.contains("not empty"))
        }
    }
}

extension DatabaseCopyTests {
    /// A copy that fails anywhere — here the log store refuses its lines, the last thing
    /// written — leaves the target as empty as it found it, and the next copy goes through.
    @Test func aCopyThatFailsPartWayLeavesNothingBehind() async throws {
        let source = try await TestConsole.make(demo: true)
        let target = try TestBackend.postgres.consoleDatabase(in: "")
        let opened = try LogStoreFiles.open(consolePath: target).files
        let refused = RefusedWrites("INSERT", on: "device_logs")
        try refused.begin(in: opened.logs)
        await #expect(throws: (any Error).self) {
            _ = try await DatabaseCopy.prepare(from: source.services.config.databasePath, to: target) { _ in }.run()
        }
        for (database, table) in [(opened.console, "users"), (opened.console, "devices"), (opened.console, "audit_events"), (opened.logs, "device_logs")] {
            #expect(try await database.read { try $0.scalar(SQL(verbatim: "SELECT count(*) FROM \(table)"), as: Int.self) } == 0, "\(table)")
        }
        try refused.end(in: opened.logs)
        let summary = try await DatabaseCopy.prepare(from: source.services.config.databasePath, to: target) { _ in }.run()
        #expect(summary.rows["users"] == 3 && summary.rows["device_logs"] ?? 0 > 0)
    }

    /// Only a stop between the two commits leaves the log store's rows alone: the next copy
    /// says what it found and how to start over.
    @Test func aLogStoreLeftByAStoppedCopyIsNamedWithHowToStartOver() async throws {
        let source = try await TestConsole.make(demo: true)
        let target = try TestBackend.postgres.consoleDatabase(in: "")
        let opened = try LogStoreFiles.open(consolePath: target).files
        try await opened.logs.write { connection in
            try LogStore.append([LogViewerTests.line("left behind")], from: LogStore.Uploader(id: RecordID(1), name: "Gone iPad"), receivedAt: Date(), in: connection)
        }
        do {
            _ = try await DatabaseCopy.prepare(from: source.services.config.databasePath, to: target) { _ in }.run()
            Issue.record("a target holding log lines must be refused")
        } catch let refusal as DatabaseCopy.Refusal {
            #expect(refusal.description.contains("stopped part-way") && refusal.description.contains("DROP SCHEMA"), "\(refusal)")
        }
    }

    /// The source is left as it was: a console serving it, or a file an older console last
    /// served, is refused — and the older file is not upgraded by the attempt.
    @Test func aServedOrOlderSourceIsRefusedAndLeftAsItWas() async throws {
        let source = try await TestConsole.make()
        let path = source.services.config.databasePath
        let target = try TestBackend.postgres.consoleDatabase(in: "")
        do {
            let served = try ServingMark.hold(path)
            #expect(throws: DatabaseCopy.Refusal.self) { _ = try DatabaseCopy.prepare(from: path, to: target) { _ in } }
            withExtendedLifetime(served) {}
        }
        #expect(try ServingMark.isServed(path) == false, "the mark goes with its holder")

        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let older = folder.appendingPathComponent("console.sqlite").path
        let olderFiles = try LogStoreFiles.open(consolePath: older).files
        try olderFiles.console.writeBlocking { try $0.execute("DELETE FROM schema_migrations WHERE version = \(Schema.migrations.last!.version)") }
        let versions = { try Migrator(Schema.migrations).appliedVersions(in: olderFiles.console) }
        let before = try versions()
        do {
            _ = try DatabaseCopy.prepare(from: older, to: target) { _ in }
            Issue.record("an older source must be refused")
        } catch let refusal as DatabaseCopy.Refusal {
            #expect(refusal.description.contains("older console") && refusal.description.contains("payload-console migrate"), "\(refusal)")
        }
        #expect(try versions() == before, "the source is not upgraded")
    }
}

/// Progress lines a copy printed.
private final class LogLinesSeen: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var count: Int { lock.withLock { lines.count } }
}
