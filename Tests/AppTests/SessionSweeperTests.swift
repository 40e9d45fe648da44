@testable import App
import Domain
import Foundation
import Logging
import Storage
import Testing

@Suite struct SessionSweeperTests {
    /// Expired sessions used to be removed only when the server started.
    @Test func expiredSessionsAreRemovedWhileTheServerRuns() async throws {
        let console = try await TestConsole.make()
        let ann = try await console.addUser("ann@example.com", role: .admin)
        let sessions = console.services.sessions
        try console.services.database.writeBlocking { connection in _ = try sessions.create(for: ann, in: connection) }
        console.clock.advance(by: sessions.lifetime + 1)
        try console.services.database.writeBlocking { connection in _ = try sessions.create(for: ann, in: connection) }

        let leases = JobLeases(database: console.services.database, instance: "test", now: { console.clock.now })
        let sweeper = Task { try await BackgroundJobs.sessionSweep(sessions, leases: leases, interval: .milliseconds(20), logger: Logger(label: "test")).run() }
        defer { sweeper.cancel() }
        var left = 2
        for _ in 0..<250 where left == 2 {
            try await Task.sleep(for: .milliseconds(20))
            left = try console.services.database.readBlocking { try $0.count(UserSession.query()) }
        }
        #expect(left == 1)
    }
}
