import Synchronization

/// A connection and the thread that alone uses it.
final class Worker: Sendable {
    // Only touched inside jobs on `thread`.
    nonisolated(unsafe) let connection: Connection
    let thread: WorkerThread

    init(_ connection: Connection, name: String, priority: WorkerThread.Priority = .normal) {
        self.connection = connection
        thread = WorkerThread(name: name, priority: priority)
    }

    func run<T: Sendable>(_ body: (Connection) throws -> T) async throws -> T {
        try await thread.run { try body(connection) }
    }
}

/// Connections lent out one job at a time — the readers, and on PostgreSQL the writers when
/// there are several — so a job waits only when every one is busy, never behind one busy
/// connection while another is idle.
final class WorkerPool: Sendable {
    private struct State {
        var idle: [Int]
        var waiting: [CheckedContinuation<Int, Never>] = []
    }

    let workers: [Worker]
    private let state: Mutex<State>
    private let nextBlocking = Atomic<Int>(0)

    init(_ readers: [Worker]) {
        workers = readers
        state = Mutex(State(idle: Array(readers.indices)))
    }

    func withIdleWorker<T: Sendable>(_ body: (Worker) async throws -> T) async throws -> T {
        let index = await checkOut()
        defer { checkIn(index) }
        return try await body(workers[index])
    }

    /// Any worker, for a blocking read: its thread runs jobs one at a time, so sharing it is safe.
    var anyWorker: Worker {
        workers[nextBlocking.wrappingAdd(1, ordering: .relaxed).oldValue % workers.count]
    }

    var isCurrent: Bool { workers.contains { $0.thread.isCurrent } }

    func stop() {
        for reader in workers { reader.thread.stop() }
    }

    private func checkOut() async -> Int {
        if let index = state.withLock({ $0.idle.popLast() }) { return index }
        return await withCheckedContinuation { continuation in
            let index: Int? = state.withLock { state in
                // A reader may have come back between the two locks.
                if let index = state.idle.popLast() { return index }
                state.waiting.append(continuation)
                return nil
            }
            if let index { continuation.resume(returning: index) }
        }
    }

    private func checkIn(_ index: Int) {
        let next: CheckedContinuation<Int, Never>? = state.withLock { state in
            if state.waiting.isEmpty {
                state.idle.append(index)
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume(returning: index)
    }
}
