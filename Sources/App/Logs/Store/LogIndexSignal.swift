/// How an upload tells the indexer that lines are waiting: at most one wake-up is kept, so a
/// thousand uploads while the indexer works wake it once.
struct LogIndexSignal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    }

    func linesArrived() {
        continuation.yield()
    }

    /// The wake-ups, for the one indexer that waits on them; ends when its task is cancelled.
    var wakeUps: AsyncStream<Void> { stream }
}
