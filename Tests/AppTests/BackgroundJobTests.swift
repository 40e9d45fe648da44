@testable import App
import Foundation
import Logging
import Storage
import Synchronization
import Testing

/// Background jobs run once across the consoles on one database (`JobLeases`), pick up when
/// the console running one dies, and wait their interval between runs.
@Suite struct BackgroundJobTests {
    private final class Runs: Sendable {
        private let count = Atomic<Int>(0)
        var total: Int { count.load(ordering: .relaxed) }
        func add() { count.add(1, ordering: .relaxed) }
    }

    private func job(_ console: TestConsole, instance: String, runs: Runs, failing: Bool = false) -> LeasedJob {
        let leases = JobLeases(database: console.services.database, instance: instance, now: { console.clock.now })
        return LeasedJob(name: "test-job", interval: .seconds(3600), leases: leases, logger: Logger(label: "test")) {
            runs.add()
            if failing { throw CancellationError() }
            return "done"
        }
    }

    @Test func consolesAskingAtOnceRunTheJobOnceAndAgainOnlyWhenDue() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        let runs = Runs()
        let jobs = [job(first, instance: "A", runs: runs), job(second, instance: "B", runs: runs)]
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 { group.addTask { await jobs[index % 2].runIfDue() } }
        }
        #expect(runs.total == 1)
        let row = try #require(try await jobs[0].leases.all().first)
        #expect(row.runs == 1 && row.holder == nil && row.lastOutcome == "done" && ["A", "B"].contains(row.lastHolder))

        // Not again within the interval, whoever asks; again once it has passed.
        for job in jobs { await job.runIfDue() }
        #expect(runs.total == 1)
        first.clock.advance(by: 3600)
        second.clock.advance(by: 3600)
        for job in jobs { await job.runIfDue() }
        #expect(runs.total == 2)
    }

    /// A console that claimed a run and died never finishes it: once its claim lapses another
    /// console runs the job, without waiting for the next interval.
    @Test func aRunWhoseConsoleDiedIsTakenOverWhenItsClaimLapses() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        let dead = JobLeases(database: first.services.database, instance: "A", now: { first.clock.now })
        #expect(try await dead.claim("test-job", every: 3600))
        let runs = Runs()
        let survivor = job(second, instance: "B", runs: runs)
        await survivor.runIfDue()
        #expect(runs.total == 0, "the claim still holds")
        second.clock.advance(by: JobLeases.lease + 1)
        await survivor.runIfDue()
        #expect(runs.total == 1)
        #expect(try await dead.renew("test-job") == false, "the dead console's claim is gone")
        let row = try #require(try await dead.all().first)
        #expect(row.lastHolder == "B" && row.holder == nil)
    }

    @Test func aFailedRunIsRecordedAndFreesTheJob() async throws {
        let console = try await TestConsole.make()
        let runs = Runs()
        await job(console, instance: "A", runs: runs, failing: true).runIfDue()
        let row = try #require(try await JobLeases(database: console.services.database, instance: "A", now: { console.clock.now }).all().first)
        #expect(runs.total == 1 && row.holder == nil && row.lastOutcome.hasPrefix("failed"))
    }
}
