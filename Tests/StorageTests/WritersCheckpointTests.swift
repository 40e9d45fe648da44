import CSQLite
import Testing
@testable import Storage

/// What the log store's writer does with its own checkpoint after a commit: SQLite answers
/// `SQLITE_BUSY` at once while another checkpoint (the checkpointer's) holds its lock.
@Suite struct WritersCheckpointTests {
    /// Answers `SQLITE_BUSY` to the first `busy` attempts, then `SQLITE_OK`; counts attempts
    /// and pauses, and lets each pause pass `pauseLength` on a clock of its own.
    private final class Lock {
        var busy: Int
        var attempts = 0
        var pauses = 0
        var now = ContinuousClock.now
        let pauseLength: Duration

        init(busyFor busy: Int, pauseLength: Duration = .milliseconds(2)) {
            self.busy = busy
            self.pauseLength = pauseLength
        }

        func checkpoint(logFrames: Int32) {
            Checkpointer.writersCheckpoint(logFrames: logFrames, pause: { pauses += 1; now += pauseLength }, now: { now }) {
                attempts += 1
                if busy > 0 { busy -= 1; return SQLITE_BUSY }
                return SQLITE_OK
            }
        }
    }

    @Test func belowTheBoundTheWriterTriesOnceAndWritesOn() {
        let lock = Lock(busyFor: 3)
        lock.checkpoint(logFrames: Checkpointer.writerWaitsAt - 1)
        #expect(lock.attempts == 1)
        #expect(lock.pauses == 0)
    }

    @Test func pastTheBoundTheWriterWaitsUntilItHasCopiedTheLog() {
        let lock = Lock(busyFor: 5)
        lock.checkpoint(logFrames: Checkpointer.writerWaitsAt)
        #expect(lock.attempts == 6)
        #expect(lock.pauses == 5)
    }

    @Test func aCheckpointThatRunsAtOnceIsNotWaitedFor() {
        let lock = Lock(busyFor: 0)
        lock.checkpoint(logFrames: 2 * Checkpointer.writerWaitsAt)
        #expect(lock.attempts == 1)
        #expect(lock.pauses == 0)
    }

    /// A checkpoint another process never finishes must not stop the log store's writes.
    @Test func theWriterGivesUpAfterTheLongestWait() {
        let lock = Lock(busyFor: .max, pauseLength: .seconds(1))
        lock.checkpoint(logFrames: Checkpointer.writerWaitsAt)
        #expect(lock.pauses == 10)
        #expect(lock.attempts == 11)
    }
}
