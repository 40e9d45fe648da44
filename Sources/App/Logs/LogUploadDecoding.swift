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
    private let next = Atomic<Int>(0)

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
        let thread = threads[next.wrappingAdd(1, ordering: .relaxed).oldValue % threads.count]
        return try await thread.run {
            prepare(try LogStore.CheckedBatch(LogUpload.lines(from: body, contentType: contentType, contentEncoding: contentEncoding)))
        }
    }
}
