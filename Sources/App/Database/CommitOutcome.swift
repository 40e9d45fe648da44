import Synchronization

/// The outcome of a write that another caller's transaction may commit (a group commit): set
/// once by whoever committed it, awaited by whoever asked for it — before or after it is set.
final class CommitOutcome<Value: Sendable>: Sendable {
    private enum State {
        case waiting([CheckedContinuation<Value, any Error>])
        case done(Result<Value, any Error>)
    }

    private let state = Mutex<State>(.waiting([]))

    /// The first outcome stands; later ones are ignored.
    func finish(_ result: Result<Value, any Error>) {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, any Error>] in
            guard case .waiting(let waiters) = state else { return [] }
            state = .done(result)
            return waiters
        }
        for waiter in waiters { waiter.resume(with: result) }
    }

    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let done = state.withLock { state -> Result<Value, any Error>? in
                switch state {
                case .done(let result): return result
                case .waiting(let waiters):
                    state = .waiting(waiters + [continuation])
                    return nil
                }
            }
            if let done { continuation.resume(with: done) }
        }
    }
}
