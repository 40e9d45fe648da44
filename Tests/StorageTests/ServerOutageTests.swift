import Foundation
import Storage
import Synchronization
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A database server that is away — refused, dropped mid-transaction, never answering — is
/// `StorageError.unavailable` (a passing outage the console answers 503), not an I/O fault, and
/// the readiness probe says so within its time limit.
@Suite struct ServerOutageTests {
    /// A port nothing listens on, on loopback: refused at once.
    static let nobodyThere = "postgres://console:hunter2@127.0.0.1:1/fleet"

    @Test func aServerNobodyListensOnIsUnavailableNotAnIOFault() throws {
        do {
            _ = try Database(try DatabaseLocation(Self.nobodyThere))
            Issue.record("nothing listens there")
        } catch let StorageError.unavailable(message, _) {
            #expect(message.contains("cannot reach PostgreSQL at postgres://console@127.0.0.1:1/fleet"), "\(message)")
            #expect(!message.contains("hunter2"))
        }
    }

    @Test(.enabled(if: Backend.available.contains(.postgres)))
    func aConnectionLostInsideATransactionIsUnavailableAndTheNextWriteWorks() async throws {
        let database = try makeDatabase(on: .postgres)
        let killer = try makeDatabase(on: .postgres)
        do {
            try await database.write { connection in
                _ = try connection.insert(Gadget.sample("lost"))
                let process = try #require(try connection.scalar("SELECT pg_backend_pid()", as: Int.self))
                // What a restart does to every session: 57P01, terminating connection due to administrator command.
                // (Waiting up to 5 s until it has gone.)
                _ = try killer.withWriterOutsideTransactionBlocking { try $0.execute("SELECT pg_terminate_backend(\(process), 5000)") }
                _ = try connection.insert(Gadget.sample("after the loss"))
            }
            Issue.record("the transaction's connection was gone")
        } catch StorageError.unavailable {
            // The answer the console turns into 503 database_unavailable.
        }
        _ = try await database.write { try $0.insert(Gadget.sample("next")) }
        let names = try await database.read { try $0.fetch(Gadget.query()).map(\.name) }
        #expect(names == ["next"], "nothing of the lost transaction was kept")
    }

    // MARK: the readiness probe

    @Test(arguments: Backend.available)
    func theProbeFindsALiveDatabaseReachable(backend: Backend) async throws {
        let folder = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let location: DatabaseLocation
        switch backend {
        case .sqlite:
            let path = folder.appendingPathComponent("probe.sqlite").path
            _ = try makeDatabase(path: path)
            location = .sqlite(path: path)
        case .postgres:
            location = try DatabaseLocation(try #require(Backend.testServer))
        }
        let probe = DatabaseProbe(location)
        #expect(await probe.check(within: .seconds(5)) == .reachable)
        #expect(await probe.check(within: .seconds(5)) == .reachable, "and again on the same connection")
    }

    // The answers say which way they came (the server's refusal, the probe's own limit, a check
    // still running), so these tests need no clock: on a test machine whose cooperative pool is
    // busy, the awaiting test may resume long after the answer was given.

    @Test func theProbeFindsARefusingServerUnreachableAtOnceAndNamesNoPassword() async throws {
        let probe = DatabaseProbe(try DatabaseLocation(Self.nobodyThere))
        // Said by what it answers, not by the clock: on a loaded machine the test's own task can
        // resume seconds late.
        let answer = await probe.check(within: .seconds(30))
        guard case .unreachable(let reason) = answer else {
            Issue.record("\(answer)")
            return
        }
        #expect(!reason.contains("did not answer within"), "refused is known at once, without waiting for the limit: \(reason)")
        #expect(!reason.contains("hunter2"))
    }

    @Test func theProbeGivesUpAtItsLimitOnAServerThatNeverAnswersAndDoesNotQueueChecks() async throws {
        let silent = try SilentServer()
        defer { silent.close() }
        let probe = DatabaseProbe(try DatabaseLocation("postgres://console@127.0.0.1:\(silent.port)/fleet"))
        // Two checks at once: one waits on the silent server until the limit, the other answers
        // at once instead of queueing a second connection attempt behind it.
        async let one = probe.check(within: .milliseconds(300))
        async let other = probe.check(within: .milliseconds(300))
        let answers = await [one, other]
        #expect(answers.contains(.unreachable("the database did not answer within 0.3 seconds")),
                "the limit answered, not the driver's 5 s connect timeout: \(answers)")
        #expect(answers.contains(.unreachable("the previous check is still waiting for the database")), "\(answers)")
    }

    // MARK: the start-up lock

    @Test(.enabled(if: Backend.available.contains(.postgres)))
    func aSecondHolderOfTheServerLockWaitsForTheFirstAndOtherSchemasDoNot() async throws {
        let url = try #require(Backend.testServer)
        let schema = "lock_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let here = try DatabaseLocation(url + "&schema=\(schema)")
        let elsewhere = try DatabaseLocation(url + "&schema=\(schema)_other")
        let events = Events()
        // The first holds the lock until the second says it waits. Should it never wait, the
        // first lets go after five minutes: a pass never waits that long, and a loaded CI
        // machine took over 90 s to get the second holder going (a 5 s limit let it in unwaited).
        async let first: Void = ServerLock.holding("test.start", on: here) {
            events.add("first in")
            try await events.waitFor("second waits", upTo: .seconds(300))
            events.add("first out")
        }
        try await events.waitFor("first in", upTo: .seconds(300))
        // Another schema's lock is its own: taken while the first is held.
        try await ServerLock.holding("test.start", on: elsewhere, whileWaiting: { events.add("other schema waited") }) {
            events.add("other schema in")
        }
        try await ServerLock.holding("test.start", on: here, whileWaiting: { events.add("second waits") }) {
            events.add("second in")
        }
        try await first
        #expect(events.all == ["first in", "other schema in", "second waits", "first out", "second in"])
    }
}

/// A TCP port that accepts connections (the kernel completes them into the backlog) and never
/// says a word: a server that hangs.
private final class SilentServer {
    let socketDescriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, listen(descriptor, 8) == 0 else {
            Glibc.close(descriptor)
            throw StorageError.io(message: "cannot listen", sql: nil)
        }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        socketDescriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Glibc.close(socketDescriptor)
    }
}

/// What happened, in order, from several tasks.
private final class Events: Sendable {
    private let list = Mutex<[String]>([])

    func add(_ event: String) { list.withLock { $0.append(event) } }
    var all: [String] { list.withLock { $0 } }

    /// Returns once `event` has happened, or after `limit` if it does not.
    func waitFor(_ event: String, upTo limit: Duration) async throws {
        let deadline = ContinuousClock.now + limit
        while !all.contains(event) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
    }
}
