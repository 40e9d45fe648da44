import Logging
import ServiceLifecycle
import Storage

/// The database as a service of the console's service group: it stops after the HTTP server
/// (services stop in the reverse order they start), once no request can write any more, and
/// folds the write-ahead log into the database file so the file alone is a complete copy.
struct DatabaseService: Service {
    let database: Database
    let logger: Logger

    func run() async throws {
        // Cancelled instead of shut down gracefully (a test's server going away): nothing to fold.
        guard (try? await gracefulShutdown()) != nil else { return }
        do {
            try await database.checkpoint()
        } catch {
            logger.error("Could not fold the write-ahead log into the database file", metadata: ["error": "\(error)"])
        }
    }
}
