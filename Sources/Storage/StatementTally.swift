import Synchronization

/// Counts what a piece of work asks of its databases: the transactions (each a hand-off to a
/// connection's thread and back) and the statements run in them. On PostgreSQL every statement
/// is a round trip to the server, so this is how a test holds a page to the round trips it
/// needs, the same count on either backend.
///
/// Work is counted while it runs inside `counting` (a task-local value, so only the calling
/// task's and its child tasks' database work counts, never what a background job runs
/// meanwhile). Outside `counting` nothing is counted: a `read` looks the task-local value up
/// once and a statement checks an optional, which is all it costs.
public final class StatementTally: Sendable {
    @TaskLocal static var current: StatementTally?

    private let statementCount = Atomic<Int>(0)
    private let transactionCount = Atomic<Int>(0)

    public init() {}

    /// Statements run, not counting the `BEGIN` and `COMMIT` that `Database.read` and `write`
    /// wrap around them (on PostgreSQL those travel with the statements beside them). A script
    /// counts once.
    public var statements: Int { statementCount.load(ordering: .relaxed) }

    /// Calls of `read`, `readSingleStatement`, `write` and their blocking and writer-only forms.
    public var transactions: Int { transactionCount.load(ordering: .relaxed) }

    /// Runs `body`, counting the database work it does into this tally.
    public func counting<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self, operation: body)
    }

    func countStatement() {
        statementCount.add(1, ordering: .relaxed)
    }

    func countTransaction() {
        transactionCount.add(1, ordering: .relaxed)
    }
}
