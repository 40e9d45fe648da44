@testable import App
import Domain
import Foundation
import Storage
import Testing

/// Two instances started at the same moment on one empty PostgreSQL database, as a deployment
/// starts them: both come up, and what a first start makes — the schema, the first admin, the
/// demo data — exists once (`ServerLock` around start-up).
@Suite(.enabled(if: TestBackend.isPostgresWanted)) struct StartingTogetherTests {
    @Test func twoConsolesOnAnEmptyDatabaseBothStartAndMakeOneFirstAdmin() async throws {
        // A few rounds: without the lock the race is lost most times, not every time.
        for round in 0..<3 {
            let database = try TestBackend.postgres.consoleDatabase(in: "")
            async let first = TestConsole.make(database: database)
            async let second = TestConsole.make(database: database)
            let consoles = try await [first, second]
            let users = try await consoles[0].services.database.read { try $0.fetch(User.query()).map(\.email) }
            #expect(users == ["admin@example.com"], "round \(round)")
            let told = consoles.filter { $0.console.startupNotes.contains { $0.contains("one-time password") } }
            #expect(told.count == 1, "round \(round): one of them made the admin and printed its password")
            let migrations = try await consoles[1].services.database.read { try $0.scalar("SELECT count(*) FROM schema_migrations", as: Int.self) }
            #expect(migrations == Schema.migrations.count)
        }
    }

    @Test func twoDemoConsolesOnAnEmptyDatabaseSeedTheDemoOnce() async throws {
        let database = try TestBackend.postgres.consoleDatabase(in: "")
        async let first = TestConsole.make(demo: true, database: database)
        async let second = TestConsole.make(demo: true, database: database)
        let consoles = try await [first, second]
        let seeded = consoles.filter { $0.console.startupNotes.contains { $0.hasPrefix("Seeded demo") } }
        #expect(seeded.count == 1)
        let (apps, demoAccounts) = try await consoles[1].services.database.read { connection in
            (try connection.count(AppRecord.query()), try connection.count(User.query()))
        }
        #expect(apps == DemoData.apps.count)
        #expect(demoAccounts == Bootstrap.demoAccounts.count)
    }
}
