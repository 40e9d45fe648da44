import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import Synchronization

/// Hears what the other consoles on the same PostgreSQL database commit to the tables this one
/// watches (`ChangeAnnouncement`) and reports it as if it had been written here, so a cache of
/// rows drops an entry whichever console changed the row. One connection of its own, `LISTEN`ing
/// for as long as the database is open.
///
/// The first `LISTEN` is in place before `init` returns, so nothing committed after the console
/// started reading goes unheard. Announcements sent while the connection is down (a database
/// restart, a network drop) are lost, so each time listening starts again every watched table
/// counts as changed: caches start over rather than keep what another console changed meanwhile.
/// All of it runs on the driver's event loop, never on Swift's cooperative pool.
final class PostgresChangeListener: Sendable {
    /// Between attempts to listen again after the connection failed.
    static let retryPause: TimeAmount = .seconds(1)

    private struct State {
        var connection: PostgresConnection?
        /// The server process serving `connection`, for tests that end it.
        var backendPID: Int?
        var stopped = false
        var failing = false
    }

    private let server: PostgresServer
    private let channel: String
    private let origin: String
    private let tracker: ChangeTracker
    private let logger: Logger
    private let state = Mutex(State())

    init(server: PostgresServer, origin: String, tracker: ChangeTracker, logger: Logger) {
        self.server = server
        channel = ChangeAnnouncement.channel(schema: server.schema)
        self.origin = origin
        self.tracker = tracker
        self.logger = logger
        do {
            try listen().wait()
        } catch {
            failed(error)
        }
    }

    var backendPID: Int? { state.withLock { $0.backendPID } }

    func stop() {
        let connection = state.withLock { state in
            state.stopped = true
            return state.connection.take()
        }
        connection?.close().whenComplete { _ in withExtendedLifetime(connection) {} }
    }

    /// Connects, asks for the channel's notifications and — once a statement sent after the
    /// `LISTEN` has answered, so the `LISTEN` is in force — arranges to start again when the
    /// connection closes.
    private func listen() -> EventLoopFuture<Void> {
        server.connect(applicationName: "payload-console changes", logger: logger)
            .flatMap { connection in
                connection.whileOpen { connection in
                    connection.addListener(channel: self.channel) { _, notification in self.hear(notification.payload) }
                    return connection.query("SELECT pg_backend_pid()", logger: self.logger)
                }.map { answer in
                    (connection, answer.rows.first.flatMap { try? $0.decode(Int.self) })
                }.flatMapError { error in
                    // Closed, not dropped: an open connection let go would go on hearing.
                    connection.close().flatMapThrowing { throw error }.flatMapErrorThrowing { _ in throw error }
                }
            }
            .map { connection, pid in
                let (stopped, recovered) = self.state.withLock { state in
                    let recovered = state.failing
                    state.failing = false
                    if !state.stopped { (state.connection, state.backendPID) = (connection, pid) }
                    return (state.stopped, recovered)
                }
                if stopped {
                    connection.close().whenComplete { _ in withExtendedLifetime(connection) {} }
                    return
                }
                if recovered {
                    self.logger.info("Listening again for changes made by other consoles")
                    self.tracker.deliver(CommittedChanges(wholly: self.tracker.watchedTables))
                }
                connection.closeFuture.whenComplete { _ in self.connectionClosed(connection) }
            }
    }

    private func hear(_ payload: String) {
        guard let announcement = ChangeAnnouncement(payload: payload), announcement.origin != origin else { return }
        tracker.deliver(announcement.changes(watched: tracker.watchedTables))
    }

    private func connectionClosed(_ connection: PostgresConnection) {
        let current = state.withLock { state in
            guard state.connection === connection else { return false }
            state.connection = nil
            return !state.stopped
        }
        if current { failed(StorageError.io(message: "the connection closed", sql: nil)) }
    }

    /// Notes the failure once per outage and tries again after a pause.
    private func failed(_ error: any Error) {
        let first = state.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            defer { state.failing = true }
            return !state.failing
        }
        guard let first else { return }
        if first {
            logger.warning("Not hearing changes made by other consoles; trying again every second",
                           metadata: ["error": "\(PostgresErrors.connectionError(error, server: server))"])
        }
        MultiThreadedEventLoopGroup.singleton.any().scheduleTask(in: Self.retryPause) {
            self.listen().whenFailure { self.failed($0) }
        }
    }
}
