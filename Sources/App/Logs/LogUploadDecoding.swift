import Domain
import Foundation
import NIOCore
import Storage
import Synchronization

/// Where upload bodies are decoded and checked: threads of their own at the log writer's lower
/// priority. A 500-line body takes a core for a few milliseconds; decoded on Swift's
/// cooperative pool (one thread per core) a flood of uploads would hold every thread that
/// serves admins, helpdesk and check-ins, however idle the console's own database is.
final class LogUploadDecoding: Sendable {
    private let threads: [WorkerThread]
    private let next = Atomic<Int>(0)

    init(threads count: Int = ProcessInfo.processInfo.activeProcessorCount) {
        threads = (0..<max(1, count)).map { WorkerThread(name: "log-upload-decoder-\($0)", niceness: Database.backgroundNiceness) }
    }

    deinit {
        for thread in threads { thread.stop() }
    }

    /// `LogUpload.lines`, on the next decoding thread.
    func lines(from body: ByteBuffer, contentType: String?, contentEncoding: String?) async throws -> [LogLine] {
        let thread = threads[next.wrappingAdd(1, ordering: .relaxed).oldValue % threads.count]
        return try await thread.run { try LogUpload.lines(from: body, contentType: contentType, contentEncoding: contentEncoding) }
    }
}
