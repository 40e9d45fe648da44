@testable import App
import Domain
import Foundation
import Storage
import Testing

/// Two consoles on one database, as two instances behind a load balancer: the rules that read
/// before they write hold when both act at once (on SQLite each file's writes run one at a
/// time; on PostgreSQL they run side by side and `Connection.lock` orders them).
@Suite struct RacingConsolesTests {
    @Test func twoConsolesDemotingTheTwoAdminsAtOnceLeaveOne() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        for round in 0..<5 {
            let one = try await first.addUser("one-\(round)@example.com", role: .admin)
            let other = try await first.addUser("other-\(round)@example.com", role: .admin)
            // Only these two are admins in this round.
            try await first.services.database.write { connection in
                try connection.execute("UPDATE users SET role = 'viewer' WHERE role = 'admin' AND id NOT IN (\(list: [one.id, other.id]))")
            }
            let demotions = [(first, one.id), (second, other.id)]
            let succeeded = await withTaskGroup(of: Bool.self) { group in
                for (console, id) in demotions {
                    group.addTask { (try? await console.services.accounts.changeRole(of: id, to: .viewer, by: .system)) != nil }
                }
                return await group.reduce(into: 0) { $0 += $1 ? 1 : 0 }
            }
            #expect(succeeded == 1, "round \(round): exactly one demotion succeeds")
            let admins = try await first.services.database.read { try $0.count(User.query().filter("role", .equal, Role.admin)) }
            #expect(admins == 1, "round \(round): one admin is left")
        }
    }

    @Test func aBurstOfGuessesSplitOverTwoConsolesGetsNoMoreTriesThanOne() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        try await first.addUser("target@example.com", role: .viewer)
        let consoles = [first, second]
        let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
            for attempt in 0..<24 {
                group.addTask {
                    let outcome = try await consoles[attempt % 2].services.signIns.signIn(email: "target@example.com", password: "wrong guess \(attempt)")
                    if case .throttled = outcome { return false }
                    return true
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        let checked = outcomes.filter { $0 }.count
        #expect(checked == SignInThrottle().freeAttempts + 1, "only the free attempts and one more reach the password check; \(checked) did")
    }

    /// An app just under its cap, uploads for it through both consoles at once: one batch may
    /// still cross the cap (as on one console), the rest are refused — none passes the check on
    /// a figure another is about to raise.
    @Test func uploadsThroughTwoConsolesCrossAnAppsCapOnce() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        try first.services.database.writeBlocking { try ConsoleSettings(logCapBytes: 2_000, logRetentionDays: 14).save(in: $0) }
        let device = try LogViewerTests.seed(first, [])
        let uploader = LogStore.Uploader(id: device, name: "Racing iPad")
        // 1,900 of the app's 2,000 bytes used: the next batch of 500 crosses the cap.
        try first.services.logs.writeBlocking { connection in
            try LogStore.append((0..<19).map { _ in LogViewerTests.line(String(repeating: "u", count: 100)) }, from: uploader,
                                receivedAt: LogViewerTests.start, in: connection)
        }
        let batch = try LogStore.CheckedBatch((0..<5).map { _ in LogViewerTests.line(String(repeating: "r", count: 100)) })
        let consoles = [first, second]
        let outcomes = await withTaskGroup(of: String.self) { group in
            for attempt in 0..<8 {
                group.addTask {
                    do {
                        _ = try await consoles[attempt % 2].services.logStore.ingest(consoles[attempt % 2].services.logStore.prepare(batch, from: uploader), logging: Logging(level: .debug))
                        return "accepted"
                    } catch LogStore.Refusal.capReached {
                        return "refused at the cap"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(outcomes.sorted() == ["accepted"] + Array(repeating: "refused at the cap", count: 7),
                "one batch crossed the cap and the others were refused")
    }
}
