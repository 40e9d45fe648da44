import CSQLite
import Glibc
import Synchronization

/// Copies the write-ahead log back into the database file on a connection and thread of its
/// own, so the writer only appends.
///
/// Left to itself, SQLite checkpoints inside the commit that takes the log past 1,000 pages:
/// the writer stops to copy pages and sync the file, and every write queued behind it waits.
/// With a checkpointer attached the writer's commits only note the log's length; past the same
/// 1,000 pages a passive checkpoint runs here, beside the writer (it never takes the write lock,
/// so writes go on while it copies), and the writer starts the log afresh at its next commit
/// once everything is copied and no reader is still using the old frames. Writes that never
/// pause would keep the log from ever being copied to its end; past four times that length the
/// writer finishes the copy itself, and past eight it waits for the checkpointer to let it.
final class Checkpointer: Sendable {
    static let pages: Int32 = 1000
    /// Past this the writer completes the checkpoint itself (see `attach`): the log stays
    /// under about 16 MB.
    static let writerTakesOverAt: Int32 = 4 * pages
    /// Past this the writer waits for the checkpoint lock rather than write on (see
    /// `writersCheckpoint`): the log file never grows much beyond 32 MB.
    static let writerWaitsAt: Int32 = 8 * pages
    /// The longest the writer waits after one commit, so that a checkpoint another process
    /// never finishes cannot stop the writer for good.
    static let longestWait: Duration = .seconds(10)
    private let worker: Worker
    private let queued = Atomic<Bool>(false)

    init(path: String, busyTimeout: Duration, priority: WorkerThread.Priority) throws {
        worker = Worker(Connection(try SQLiteConnection(path: path, busyTimeout: busyTimeout, queryOnly: false)), name: "checkpointer", priority: priority)
    }

    /// Makes `writer`'s commits report here instead of checkpointing themselves. Call on the
    /// writer's thread; `detach` before the checkpointer goes.
    func attach(to writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, { context, handle, name, frames in
            if frames >= Checkpointer.writerTakesOverAt {
                // Under writes that never pause, checkpoints beside the writer never reach
                // its last frame, and only a checkpoint that does lets the log start afresh.
                // The writer finishes the copy itself, between two of its writes: most pages
                // are already copied, so this costs it little.
                Checkpointer.writersCheckpoint(logFrames: frames) {
                    sqlite3_wal_checkpoint_v2(handle, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
                }
            } else {
                Unmanaged<Checkpointer>.fromOpaque(context!).takeUnretainedValue().logGrew(to: frames)
            }
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The writer's own checkpoint after a commit that left the log `logFrames` long.
    ///
    /// SQLite lets one checkpoint run at a time and answers `SQLITE_BUSY` at once to any other.
    /// While the checkpointer is copying, the writer's attempt fails and it writes on; if the
    /// checkpointer is slow to finish — it runs at idle priority, and its closing `fsync` can
    /// queue behind other disk writes — the log grows by every write meanwhile (to 44 MB in a
    /// test that writes 40 MB beside two busy loops and a disk filler). Past `writerWaitsAt`
    /// the writer waits for the lock instead: uploads slow down, the log stays bounded.
    static func writersCheckpoint(
        logFrames: Int32,
        pause: () -> Void = { usleep(2_000) },
        now: () -> ContinuousClock.Instant = { .now },
        checkpoint: () -> Int32
    ) {
        guard checkpoint() == SQLITE_BUSY, logFrames >= writerWaitsAt else { return }
        let deadline = now() + longestWait
        repeat {
            pause()
        } while checkpoint() == SQLITE_BUSY && now() < deadline
    }

    func detach(from writer: SQLiteConnection) {
        sqlite3_wal_hook(writer.handle, nil, nil)
    }

    func stop() {
        worker.thread.stop()
    }

    /// After each commit: one checkpoint queued at a time, however many commits pass meanwhile.
    private func logGrew(to frames: Int32) {
        guard frames >= Self.pages, !queued.exchange(true, ordering: .acquiringAndReleasing) else { return }
        worker.thread.submit { [self] in
            queued.store(false, ordering: .releasing)
            // A failed or partial checkpoint is tried again after the next commit.
            _ = try? worker.connection.rows("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }
}
