import Dispatch

/// Where the driver's asynchronous COPY runs: a serial queue of its own, not Swift's
/// cooperative threads. A COPY is waited for by a session's worker thread; had its task to
/// wait for a cooperative thread while those (two on a 2-core machine) were themselves blocked
/// waiting for the database, neither would ever go on — two tests seeding logs side by side
/// hung that way. The task's work is short (it hands a buffer to the event loop), so one queue
/// serves every session.
final class CopyTaskExecutor: TaskExecutor {
    static let shared = CopyTaskExecutor()
    private let queue = DispatchQueue(label: "payload-console.postgres-copy")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
