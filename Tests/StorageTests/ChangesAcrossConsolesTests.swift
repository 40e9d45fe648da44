import Foundation
@testable import Storage
import Synchronization
import Testing

/// Two consoles on one PostgreSQL database: what one commits to a watched table reaches the
/// other's caches (`PostgresChangeListener`), as SQLite's update hook tells the one process.
@Suite struct ChangesAcrossConsolesTests {
    @Test func whatOneConsoleCommitsReachesTheOthersObservers() async throws {
        guard Backend.available.contains(.postgres) else { return }
        let (first, second) = try Backend.postgres.twoDatabasesOnOneStore()
        let ownReports = Reports()
        first.onCommit(tables: ["gadgets"]) { ownReports.add($0) }
        let heard = Reports()
        second.onCommit(tables: ["gadgets"]) { heard.add($0) }

        let before = second.commitCount
        let saved = try await first.write { try $0.insert(Gadget.sample("announced")) }
        try await heard.waitFor { $0.rowIDs(in: "gadgets") == [saved.id.rawValue] }
        #expect(second.commitCount > before)

        // A write rolled back is never announced: the one after it is heard, and nothing else.
        let heardSoFar = heard.count
        await #expect(throws: Refused.self) {
            try await first.write { connection in
                _ = try connection.insert(Gadget.sample("rolled back"))
                throw Refused()
            }
        }
        let next = try await first.write { try $0.insert(Gadget.sample("after")) }
        try await heard.waitFor { $0.rowIDs(in: "gadgets") == [next.id.rawValue] }
        #expect(heard.count == heardSoFar + 1)
        // The writer heard each of its own writes once, from itself, not again from the server.
        #expect(ownReports.all.map { $0.rowIDs(in: "gadgets") } == [[saved.id.rawValue], [next.id.rawValue]])
    }

    /// Announcements sent while the listener's connection is down are lost: once it listens
    /// again it reports every watched table as changed, and hears new writes as before.
    @Test func aListenerWhoseConnectionDiedListensAgainAndReportsEverything() async throws {
        guard Backend.available.contains(.postgres) else { return }
        let (first, second) = try Backend.postgres.twoDatabasesOnOneStore()
        first.onCommit(tables: ["gadgets"]) { _ in }
        let heard = Reports()
        second.onCommit(tables: ["gadgets"]) { heard.add($0) }
        let listener = try #require(second.changeListenerBackendPID)
        // Counted first: on a loaded machine the listener can be back before this task resumes.
        let heardBefore = heard.count
        #expect(try await first.write { try $0.scalar("SELECT pg_terminate_backend(\(listener))", as: Bool.self) } == true)
        try await heard.waitFor(after: heardBefore) { $0.rowIDs(in: "gadgets") == nil }

        let saved = try await first.write { try $0.insert(Gadget.sample("heard again")) }
        try await heard.waitFor { $0.rowIDs(in: "gadgets") == [saved.id.rawValue] }
    }

    @Test func anAnnouncementTooBigForPostgreSQLSaysEverythingChanged() {
        let notes = (1...2_000).map { "gadgets:\($0)," }.joined()
        let big = ChangeAnnouncement(origin: "a", notes: notes, wholly: "")
        #expect(big.payload == "a\n*\n")
        #expect(ChangeAnnouncement(payload: big.payload)?.changes(watched: ["gadgets", "owners"]).rowIDs(in: "owners") == nil)
        let small = ChangeAnnouncement(origin: "a", notes: "gadgets:7,", wholly: ",owners,")
        #expect(ChangeAnnouncement(payload: small.payload) == small)
        let changes = small.changes(watched: ["gadgets", "owners"])
        #expect(changes.rowIDs(in: "gadgets") == [7] && changes.rowIDs(in: "owners") == nil)
    }

    private struct Refused: Error {}
}

/// Reports an observer received, for waiting on the one a test expects.
private final class Reports: Sendable {
    private let reports = Mutex<[CommittedChanges]>([])

    func add(_ changes: CommittedChanges) { reports.withLock { $0.append(changes) } }
    var all: [CommittedChanges] { reports.withLock { $0 } }
    var count: Int { all.count }

    /// Waits until a report after the first `after` matches. A pass takes milliseconds; the
    /// bound only ends a failing run (the parallel suites can keep the other side busy).
    func waitFor(after: Int = 0, _ matches: (CommittedChanges) -> Bool) async throws {
        for _ in 0..<6_000 {
            if all.dropFirst(after).contains(where: matches) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no matching report after the first \(after); heard \(all.map { $0.rowIDs(in: "gadgets").map { "\($0.sorted())" } ?? "everything" })")
    }
}
