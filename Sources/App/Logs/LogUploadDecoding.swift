import Domain
import Foundation
import NIOCore
import Storage
import Synchronization

/// Where upload bodies are decoded and their lines checked (`LogStore.CheckedBatch`): threads of their own at the log writer's lower
/// priority. A 500-line body takes a core for a few milliseconds; decoded on Swift's
/// cooperative pool (one thread per core) a flood of uploads would hold every thread that
/// serves admins, helpdesk and check-ins, however idle the console's own database is.
final class LogUploadDecoding: Sendable {
    private let threads: [WorkerThread]
    private let nextBatch = Atomic<Int>(0)
    // Counted apart from the batches: every upload makes one of each, and one count for both
    // would send all the batches to one thread and all the discards to the other.
    private let nextDiscard = Atomic<Int>(0)

    init(threads count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        threads = (0..<max(1, count)).map { WorkerThread(name: "log-decoder-\($0)", priority: .background) }
    }

    deinit {
        for thread in threads { thread.stop() }
    }

    /// `LogUpload.lines`, checked and then made ready by `prepare`, on the next decoding
    /// thread: an `APIError` for a body that cannot be read, `LogStore.Refusal.batch` for lines
    /// the store would refuse.
    func batch<Prepared: Sendable>(from body: ByteBuffer, contentType: String?, contentEncoding: String?,
                                   then prepare: @Sendable (LogStore.CheckedBatch) -> Prepared) async throws -> Prepared {
        try await thread(nextBatch).run {
            prepare(try LogStore.CheckedBatch(LogUpload.lines(from: body, contentType: contentType, contentEncoding: contentEncoding)))
        }
    }

    /// Takes `value` and lets go of it on a decoding thread. A stored upload is thousands of
    /// strings and arrays; freed where its request ends, on the threads that answer people,
    /// that was a quarter of their work during a flood.
    func discard<Value: Sendable>(_ value: inout Value?) {
        let handoff = Handoff(value.take())
        thread(nextDiscard).submit { handoff.empty() }
    }

    private func thread(_ turn: borrowing Atomic<Int>) -> WorkerThread {
        threads[turn.wrappingAdd(1, ordering: .relaxed).oldValue % threads.count]
    }
}

/// The one owner of a value on its way to another thread, which empties it there: whichever
/// thread lets go of the handoff itself last, the value is freed where `empty` runs.
private final class Handoff<Value: Sendable>: Sendable {
    private let value: Mutex<Value?>

    init(_ value: consuming Value?) {
        self.value = Mutex(value)
    }

    func empty() {
        value.withLock { $0 = nil }
    }
}
