import ServiceLifecycle

/// How work tells a background loop that something waits: at most one wake-up is kept, so a
/// thousand uploads (or commits) while the loop works wake it once more, not a thousand times.
struct WakeSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func wake() {
        continuation.yield()
    }

    /// The wake-ups, for the one loop that waits on them; ends when its task is cancelled.
    var wakeUps: AsyncStream<Void> { stream }

    /// Runs `loop` (which waits on `wakeUps`) until a graceful shutdown, waking it every
    /// `interval` anyway, after `onTick`: work can arrive without anyone calling `wake`.
    /// A graceful shutdown cancels both, and that is their end, not a failure: a
    /// CancellationError thrown out of a service fails the service group, and the console
    /// would exit with status 1 on every SIGTERM.
    func run(every interval: Duration, onTick: @escaping @Sendable () async -> Void = {},
             loop: @escaping @Sendable () async throws -> Void) async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: interval)
                            await onTick()
                            wake()
                        }
                    }
                    group.addTask { try await loop() }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch is CancellationError {}
    }
}
