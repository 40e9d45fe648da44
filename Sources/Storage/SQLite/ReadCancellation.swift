import CSQLite
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

    /// SQLite's progress handler asks this every `SQLiteConnection.instructionsBetweenChecks`.
    fileprivate func stopsStatement() -> Bool {
        guard isCancelled else { return false }
        stoppedStatement.store(true, ordering: .relaxed)
        return true
    }

    fileprivate var stoppedAStatement: Bool { stoppedStatement.load(ordering: .relaxed) }
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
    /// How many virtual machine instructions run between two looks at the cancellation: a few
    /// microseconds of work, and a look costs a function call and an atomic load.
    static let instructionsBetweenChecks: Int32 = 1000

    /// Runs `body` with a progress handler that stops the running statement once
    /// `cancellation` is cancelled. The handler is there only while `body` runs, so the
    /// rollback after it, and whatever the connection runs next, is never stopped.
    func interruptible<T>(by cancellation: ReadCancellation, _ body: () throws -> T) throws -> T {
        let context = Unmanaged.passUnretained(cancellation).toOpaque()
        sqlite3_progress_handler(handle, Self.instructionsBetweenChecks, { context in
            guard let context else { return 0 }
            return Unmanaged<ReadCancellation>.fromOpaque(context).takeUnretainedValue().stopsStatement() ? 1 : 0
        }, context)
        let result = withExtendedLifetime(cancellation) { Result { try body() } }
        sqlite3_progress_handler(handle, 0, nil, nil)
        if cancellation.stoppedAStatement { throw CancellationError() }
        return try result.get()
    }
}
