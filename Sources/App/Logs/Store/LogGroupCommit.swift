import Storage
import Synchronization

/// Uploads that reach the log writer while it is busy go in together: the first write that
/// gets the writer takes every upload waiting by then, stores each in a savepoint of its own
/// (a refused or failed upload leaves the others in) and commits once. Each upload's caller
/// hears only after that commit, so "stored" still means durable. Under a flood this writes
/// thousands of lines a transaction instead of 500 — the index pages every batch touches are
/// written once per commit, not once per upload — and it says how many uploads are waiting,
/// which the indexer yields to (`LogIndexingService`).
final class LogGroupCommit: Sendable {
    /// One upload's write: the work, and its outcome once the group has committed.
    private final class Entry: Sendable {
        let store: @Sendable (Connection) throws -> LogStore.Refusal?
        private let outcome = CommitOutcome<LogStore.Refusal?>()

        init(_ store: @escaping @Sendable (Connection) throws -> LogStore.Refusal?) {
            self.store = store
        }

        func finish(_ result: Result<LogStore.Refusal?, any Error>) { outcome.finish(result) }
        func result() async throws -> LogStore.Refusal? { try await outcome.value() }
    }

    private let waiting = Mutex<[Entry]>([])
    private let inFlight = Atomic<Int>(0)

    /// Uploads handed to the writer and not yet committed.
    var uploadsWaiting: Int { inFlight.load(ordering: .relaxed) }

    /// Runs `store` in the next transaction of `logs` to commit, with whatever other uploads
    /// are waiting; returns its refusal once that transaction has committed.
    func write(to logs: Database, _ store: @escaping @Sendable (Connection) throws -> LogStore.Refusal?) async throws -> LogStore.Refusal? {
        inFlight.add(1, ordering: .relaxed)
        defer { inFlight.subtract(1, ordering: .relaxed) }
        // PostgreSQL gains nothing from the grouping (it has no index pages to share out), and
        // several uploads in one transaction would take their apps' usage locks out of order
        // across groups: each upload commits alone there, on whichever log writer is free.
        if logs.dialect == .postgres { return try await logs.write(store) }
        let entry = Entry(store)
        waiting.withLock { $0.append(entry) }
        // This write may find the queue empty (an earlier one took this entry) or take others'.
        do {
            try await commitWaiting(to: logs)
        } catch {
            // Not begun (the writer could not start a transaction): if the entry is still
            // queued, nothing of it was written, and it fails here rather than wait.
            let stillQueued = waiting.withLock { queue in
                guard let index = queue.firstIndex(where: { $0 === entry }) else { return false }
                queue.remove(at: index)
                return true
            }
            if stillQueued { entry.finish(.failure(error)) }
        }
        return try await entry.result()
    }

    private func commitWaiting(to logs: Database) async throws {
        // Filled on the writer's thread inside the write, read here once it has returned.
        let taken = Mutex<[Entry]>([])
        do {
            let outcomes = try await logs.write { connection -> [Result<LogStore.Refusal?, any Error>] in
                let entries = waiting.withLock { queue in defer { queue.removeAll() }; return queue }
                taken.withLock { $0 = entries }
                return try entries.map { entry in
                    let outcome = Result { try connection.savepoint { try entry.store(connection) } }
                    // SQLite ended the transaction itself (a full disk): the next savepoint would
                    // begin and commit one of its own, so the group stops and fails whole.
                    if case .failure(let error) = outcome, !connection.isInTransaction { throw error }
                    return outcome
                }
            }
            for (entry, outcome) in zip(taken.withLock { $0 }, outcomes) { entry.finish(outcome) }
        } catch {
            // The commit failed: nothing of the group is stored, and each of its uploads hears why.
            for entry in taken.withLock({ $0 }) { entry.finish(.failure(error)) }
            throw error
        }
    }
}
