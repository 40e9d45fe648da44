import Logging
import Storage
import Synchronization

/// Whether this console should be sent new work, for a load balancer's readiness check
/// (`GET /readyz`): not while it cannot reach its database, and not once it has begun shutting
/// down. Liveness (`/healthz`) is another question — a console that lost its database is alive
/// and answers 503 until the database is back, so restarting it would help nobody.
final class Readiness: Sendable {
    enum State: String, Sendable {
        case ready
        case databaseUnreachable = "database_unreachable"
        case shuttingDown = "shutting_down"
    }

    /// How long the database has to answer: a load balancer polls every few seconds, and a
    /// database slower than this to say `SELECT 1` is as good as gone for a person waiting.
    static let timeout: Duration = .milliseconds(500)

    private let probe: DatabaseProbe
    private let logger: Logger
    private let draining = Atomic<Bool>(false)
    /// The last answer, so the log says when the database goes and comes back, not every poll.
    private let last = Mutex<State>(.ready)

    init(probe: DatabaseProbe, logger: Logger) {
        self.probe = probe
        self.logger = logger
    }

    /// From now on the answer is `shuttingDown` (SIGTERM, see `DrainOnShutdown`).
    func beginShuttingDown() {
        draining.store(true, ordering: .sequentiallyConsistent)
    }

    var isShuttingDown: Bool { draining.load(ordering: .sequentiallyConsistent) }

    func check() async -> State {
        if isShuttingDown { return .shuttingDown }
        let answer = await probe.check(within: Self.timeout)
        // Asked again: the console may have begun shutting down while the probe waited.
        if isShuttingDown { return .shuttingDown }
        let state: State = answer == .reachable ? .ready : .databaseUnreachable
        let previous = last.withLock { last in
            defer { last = state }
            return last
        }
        if state != previous {
            if case .unreachable(let reason) = answer {
                logger.warning("Not ready: the database does not answer", metadata: ["reason": "\(reason)"])
            } else {
                logger.notice("Ready again: the database answers")
            }
        }
        return state
    }
}
