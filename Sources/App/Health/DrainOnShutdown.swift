import Logging
import ServiceLifecycle

/// The first service told of SIGTERM or SIGINT (services stop in reverse order, and this one is
/// last): from then on `/readyz` answers 503, and for `delay` the console goes on serving as
/// before, so a load balancer that polls readiness stops sending new requests before the server
/// stops accepting them. Then the server stops listening and lets the requests in flight finish.
struct DrainOnShutdown: Service {
    let readiness: Readiness
    let delay: Duration
    let logger: Logger

    func run() async throws {
        // Cancelled instead of shut down gracefully: nothing to drain.
        guard (try? await gracefulShutdown()) != nil else { return }
        readiness.beginShuttingDown()
        logger.notice("Shutting down: /readyz answers 503 from now on", metadata: ["drainDelay": "\(delay)"])
        try? await Task.sleep(for: delay)
    }
}
