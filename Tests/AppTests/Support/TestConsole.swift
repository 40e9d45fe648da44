@testable import App
import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Storage
import Synchronization

/// A clock tests can move forward (session expiry, sign-in throttle).
final class TestClock: Sendable {
    private let current = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 += seconds } }
}

/// The console built in-process on a private database file — with the production reader
/// pool, so reads and writes use separate connections as they do when served — and a cheap
/// bcrypt cost.
struct TestConsole {
    static let password = "correct horse battery"
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    let console: Console
    let clock: TestClock

    /// Unless `keepFirstAdmin`, the admin that a first start creates is removed again, so each
    /// test begins with exactly the accounts it adds.
    /// `indexesLogs: false` leaves uploaded lines out of the full-text index until a test asks
    /// (`services.logIndexer`), as a flood leaves them.
    /// `sharingDatabaseWith`: a second console on the first one's database, as a second
    /// instance behind a load balancer would be (its own process state, the same data).
    /// `onPostgreSQL`: on the test server whatever the suite's backend, for tests that compare both.
    /// `dataDirectory`: a folder the test prepared (what an older console left there) instead of a fresh one.
    /// `database`: this `--db` (a server a test started, a schema two consoles start on together).
    static func make(demo: Bool = false, keepFirstAdmin: Bool = false, indexesLogs: Bool = true,
                     sharingDatabaseWith other: TestConsole? = nil, onPostgreSQL: Bool = false, dataDirectory: URL? = nil,
                     database: String? = nil) async throws -> TestConsole {
        let clock = TestClock()
        var config = AppConfig()
        config.dataDirectory = (dataDirectory ?? testRunDirectory.appendingPathComponent(UUID().uuidString)).path
        let backend = onPostgreSQL ? .postgres : TestBackend.current
        config.databasePath = try database ?? other?.services.config.databasePath ?? backend.consoleDatabase(in: config.dataDirectory)
        config.demo = demo
        config.indexesLogs = indexesLogs
        config.bcryptCost = 4
        config.templatesDirectory = packageRoot.appendingPathComponent("Templates").path
        config.helpDirectory = packageRoot.appendingPathComponent("docs/help").path
        config.publicDirectory = packageRoot.appendingPathComponent("Public").path
        config.now = { clock.now }
        var logger = Logger(label: "test")
        // PAYLOAD_CONSOLE_TEST_LOG=1 shows the server's errors (a 500's cause) while debugging.
        logger.logLevel = ProcessInfo.processInfo.environment["PAYLOAD_CONSOLE_TEST_LOG"] == nil ? .critical : .error
        let console = try await buildConsole(config: config, logger: logger)
        if !demo && !keepFirstAdmin && other == nil && database == nil {
            try console.services.database.writeBlocking { connection in
                _ = try connection.delete(User.query().filter("email", .equal, config.firstAdminEmail))
                _ = try connection.execute("DELETE FROM audit_events")
            }
        }
        return TestConsole(console: console, clock: clock)
    }

    var services: Services { console.services }

    /// How many stored lines the log viewer's search finds for `text`, on either backend.
    func linesFound(searching text: String) async throws -> Int {
        var filter = LogFilter()
        filter.searchText = text
        filter.search = try LogSearch(text)
        return try await services.logReader.rows(filter, limit: 10_000).rows.count
    }
    var routes: [RouteEntry] { console.routes }

    /// Returns once a live stream (device page, simulator events) waits for changes, so a test
    /// makes its change after the stream took its mark however loaded the machine is.
    func untilAStreamListens() async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while services.liveChanges.waiting == 0 {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The API document as `/api/openapi.json` serves it.
    var openAPIDocument: [String: Any] {
        get throws {
            // Read back from its JSON, as a client reads the served document.
            let bytes = try APIAnswerCoding.encoder.encode(try OpenAPIDocument.document(describing: console.operations))
            return try JSONSerialization.jsonObject(with: bytes) as? [String: Any] ?? [:]
        }
    }

    /// The API document of a console made for the purpose.
    static func openAPIDocument() async throws -> [String: Any] {
        try await make().openAPIDocument
    }

    /// An account with the shared test password, ready to sign in.
    @discardableResult
    func addUser(_ email: String, role: Role, mustChangePassword: Bool = false) async throws -> User {
        var (user, _) = try await services.accounts.createUser(email: email, role: role, password: Self.password, by: .system)
        if mustChangePassword {
            user.mustChangePassword = true
            let changed = user
            try services.database.writeBlocking { try $0.update(changed) }
        }
        return user
    }

    func test<Value: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await console.application.test(.router, body)
    }
}

/// Where this test run keeps its consoles' files, by process id; runs that have ended lose
/// theirs when the next one starts.
let testRunDirectory: URL = {
    let parent = FileManager.default.temporaryDirectory.appendingPathComponent("payload-console-tests")
    for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? [] {
        if let pid = Int32(name), kill(pid, 0) != 0 {
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }
    return parent.appendingPathComponent("\(ProcessInfo.processInfo.processIdentifier)")
}()
