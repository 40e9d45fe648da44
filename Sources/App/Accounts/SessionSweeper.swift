import Logging
import ServiceLifecycle

/// Deletes expired sessions when the console starts and every `interval` while it runs, so a
/// long-running server's session table holds only live sessions (lookups already ignore
/// expired ones).
struct SessionSweeper: Service {
    let sessions: SessionStore
    let interval: Duration
    let logger: Logger

    func run() async throws {
        // The sleep is cancelled at shutdown, which ends the loop.
        repeat {
            do {
                let removed = try await sessions.deleteExpired()
                if removed > 0 { logger.info("Removed expired sessions", metadata: ["count": "\(removed)"]) }
            } catch {
                logger.error("Could not remove expired sessions", metadata: ["error": "\(error)"])
            }
        } while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: interval) })) != nil
    }
}
