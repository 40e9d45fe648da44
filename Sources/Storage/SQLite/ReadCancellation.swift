import Synchronization

/// One read's cancellation, shared by the task that asked for the read (which cancels it) and
/// the worker thread running it (which stops its statements). Each read has its own, so a
/// cancellation that arrives late can only ever stop the read it belongs to, never the next one
/// that took the connection, and never a write.
final class ReadCancellation: Sendable {
    private let cancelled = Atomic<Bool>(false)
    /// Set on the worker's thread when a statement was stopped: from then on the read's result,
    /// whatever its closure made of the failure, is the cancellation.
    private let stoppedStatement = Atomic<Bool>(false)

    func cancel() { cancelled.store(true, ordering: .relaxed) }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// SQLite's progress handler asks this every `SQLiteConnection.instructionsBetweenLooks`.
    func stopsStatement() -> Bool {
        guard isCancelled else { return false }
        stoppedStatement.store(true, ordering: .relaxed)
        return true
    }

    var stoppedAStatement: Bool { stoppedStatement.load(ordering: .relaxed) }
}

extension Connection {
    /// Runs `body`, a read, so that a cancellation stops it: none of it runs when the read was
    /// cancelled before a connection was free, and on SQLite the statement running when the
    /// cancellation comes ends within a few thousand instructions (SQLITE_INTERRUPT), whereupon
    /// the read throws `CancellationError`. On PostgreSQL a started statement runs to its end:
    /// postgres-nio sends no cancel request on the path our sessions use.
    func interruptible<T>(by cancellation: ReadCancellation, _ body: (Connection) throws -> T) throws -> T {
        if cancellation.isCancelled { throw CancellationError() }
        guard let sqlite else { return try body(self) }
        return try sqlite.interruptible(by: cancellation) { try body(self) }
    }
}

extension SQLiteConnection {
    /// Runs `body` so that its statements stop once `cancellation` is cancelled (the
    /// connection's progress handler looks, `look()`). Only while `body` runs, so the rollback
    /// after it, and whatever the connection runs next, is never stopped.
    func interruptible<T>(by cancellation: ReadCancellation, _ body: () throws -> T) throws -> T {
        self.cancellation = cancellation
        let result = Result { try body() }
        self.cancellation = nil
        if cancellation.stoppedAStatement { throw CancellationError() }
        return try result.get()
    }
}
