import Foundation

/// Work that must run once however many consoles start on one PostgreSQL database at the same
/// moment — migrations, the first admin, demo seeding — spans several transactions and both of a
/// console's databases, so a transaction's lock (`Connection.lock`) cannot cover it. This holds a
/// session-level advisory lock on a connection of its own for as long as the work takes: a second
/// console waits, then finds the work done. The lock goes with the connection, so a console that
/// dies half-way lets the next one in.
///
/// SQLite needs none of this: one file is one console's (its migrations already run in
/// exclusive transactions).
public enum ServerLock {
    /// Runs `body` holding the lock `name` on `location`'s database. The lock is per schema, so
    /// consoles in different schemas of one server (the test suites) do not wait for each other.
    /// `whileWaiting` is called once when another holder makes this one wait.
    public static func holding<T>(_ name: String, on location: DatabaseLocation, whileWaiting: @Sendable () -> Void = {},
                                  _ body: () async throws -> T) async throws -> T {
        guard case .postgres(let server) = location else { return try await body() }
        let key = "\(name):\(server.schema ?? "")"
        let thread = WorkerThread(name: "server-lock")
        defer { thread.stop() }
        // Only touched inside jobs on `thread`.
        nonisolated(unsafe) var held: PostgresSession?
        try await thread.run {
            let session = try PostgresSession(server: server, readOnly: false)
            let free = try session.rows("SELECT pg_try_advisory_lock(hashtextextended(\(key), 0)) AS taken").first?.first(as: Bool.self)
            if free != true {
                whileWaiting()
                _ = try session.rows("SELECT pg_advisory_lock(hashtextextended(\(key), 0))")
            }
            held = session
        }
        do {
            let result = try await body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }

        func release() async {
            _ = try? await thread.run {
                // Closing the connection would release it too; unlocking first lets the next
                // console in without waiting for the server to notice the close.
                _ = try? held?.rows("SELECT pg_advisory_unlock(hashtextextended(\(key), 0))")
                held = nil
            }
        }
    }
}
