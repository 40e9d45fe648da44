import Logging
import ServiceLifecycle

/// Runs the indexer while the console serves: at start (to resume what a previous run left),
/// then shortly after uploads arrive, a batch at a time until the index has caught up.
struct LogIndexingService: Service {
    let indexer: LogIndexer
    let signal: WakeSignal
    /// Uploads waiting for the writer come first: acknowledging them is what devices wait for,
    /// while unindexed lines are still found by search. During a flood the index falls behind
    /// and catches up once the writer has time.
    let uploads: LogGroupCommit
    /// How long to let more uploads arrive after one wakes the indexer, so that under steady
    /// load it takes them in one batch rather than one small segment each.
    let gathering: Duration
    /// Lines can reach the log store's file without an upload telling the indexer (a copy
    /// moved in at start, a script writing to the file): it looks this often anyway.
    var lookingAnyway: Duration = .seconds(5)
    /// However busy the writer, a batch is indexed at least this often, so a flood that never
    /// pauses still sees the index move.
    var yieldingAtMost: Duration = .seconds(1)
    let logger: Logger

    func run() async throws {
        try await signal.run(every: lookingAnyway) { try await indexWhenWoken() }
    }

    private func indexWhenWoken() async throws {
        var wakeUps = signal.wakeUps.makeAsyncIterator()
        while !Task.isCancelled {
            do {
                try await yieldToUploads()
                // A full batch means more are waiting.
                if try await indexer.indexNext() == LogIndexer.batchSize { continue }
            } catch is CancellationError {
                throw CancellationError()  // shutting down, while it waited for uploads: not a failure
            } catch {
                // A full disk, say: the lines are stored and searches still find them; try again.
                logger.error("Indexing log lines failed; searches still find them", metadata: ["error": "\(error)"])
                try await Task.sleep(for: .seconds(5))
                continue
            }
            guard await wakeUps.next() != nil else { return }
            try await Task.sleep(for: gathering)
        }
    }

    /// Waits while uploads are waiting for the writer, for at most `yieldingAtMost`.
    private func yieldToUploads() async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + yieldingAtMost
        while uploads.uploadsWaiting > 0 && clock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
