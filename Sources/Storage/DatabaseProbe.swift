import Foundation
import Synchronization

/// Asks whether the database answers, on a connection and thread of its own, within a time
/// limit: what a readiness check needs. Its own connection, because a check that queued
/// behind a busy reader pool would report a loaded console as unreachable (and a load
/// balancer would take it out exactly when it is needed), and a check stuck on a server that
/// does not answer must hold no connection a request wants.
///
/// One check runs at a time: while one is still waiting on the server, the next answers at
/// once that it has no answer, instead of queueing behind it.
public final class DatabaseProbe: Sendable {
    public enum Answer: Sendable, Equatable {
        case reachable
        /// Why not, for the log: it may name the server (never its password).
        case unreachable(String)
    }

    private let location: DatabaseLocation
    private let thread = WorkerThread(name: "database-probe")
    private let checking = Atomic<Bool>(false)
    // Only touched inside jobs on `thread`.
    nonisolated(unsafe) private var session: (any Session)?

    public init(_ location: DatabaseLocation) {
        self.location = location
    }

    deinit {
        thread.stop()
    }

    /// Runs `SELECT 1`, connecting first when there is no connection (the server was down at
    /// the last check, or at start), and answers within `timeout` whatever the server does.
    public func check(within timeout: Duration) async -> Answer {
        guard checking.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return .unreachable("the previous check is still waiting for the database")
        }
        return await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            thread.submit { [self] in
                let result = ask()
                checking.store(false, ordering: .releasing)
                answer.give(result)
            }
            // On Dispatch, not the cooperative pool: a pool kept busy must not keep the answer late.
            DispatchQueue.global().asyncAfter(deadline: .now() + .nanoseconds(Int(timeout / .nanoseconds(1)))) {
                answer.give(.unreachable("the database did not answer within \(timeout)"))
            }
        }
    }

    /// On the probe's thread.
    private func ask() -> Answer {
        do {
            do {
                try select()
            } catch StorageError.unavailable {
                // The first statement after a server restart finds the old connection closed;
                // the second opens a new one (and fails at once if the server is still down).
                try select()
            }
            return .reachable
        } catch {
            return .unreachable("\(error)")
        }
    }

    private func select() throws {
        // A session that never opened (the server was down) is made again; one that opened
        // opens its connection again by itself.
        if session == nil { session = try open() }
        _ = try session?.rows("SELECT 1")
    }

    private func open() throws -> any Session {
        switch location {
        case .sqlite(let path):
            try SQLiteConnection(path: path == "" ? ":memory:" : path, busyTimeout: .milliseconds(200), queryOnly: true)
        case .postgres(let server):
            try PostgresSession(server: server, readOnly: true)
        }
    }
}

/// The first of two answers to one question (the work's or the timer's), handed to the
/// waiting continuation; the later one is dropped.
private final class FirstAnswer<Value: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<Value, Never>?>

    init(_ continuation: CheckedContinuation<Value, Never>) {
        self.continuation = Mutex(continuation)
    }

    func give(_ value: Value) {
        let waiting = continuation.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
        waiting?.resume(returning: value)
    }
}
