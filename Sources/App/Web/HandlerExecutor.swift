import NIOPosix

/// Runs route handlers on a thread pool of their own instead of Swift's cooperative pool.
///
/// Handlers call SQLite, bcrypt and the template engine synchronously. On the cooperative
/// pool (one thread per core) that blocking work also holds up the continuations that read
/// requests and write responses, and under load some connections waited 40 ms and more while
/// others were served at once (`Benchmarks/pages.sh`, wrk with two threads). With handlers
/// here, the cooperative pool stays free for Hummingbird's I/O and requests are served in
/// turn: the p99 of the profile list fell from 40–65 ms to about 15 ms at 8 clients.
final class HandlerExecutor: TaskExecutor {
    /// One pool for the process: tests build many applications, and threads are not free.
    static let shared = HandlerExecutor(threads: 4)

    private let pool: NIOThreadPool

    /// Four threads, matching the database's four reading connections, so reads by different
    /// requests run side by side while a write waits its turn on the writer.
    private init(threads: Int) {
        pool = NIOThreadPool(numberOfThreads: threads)
        pool.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        pool.submit { _ in job.runSynchronously(on: executor) }
    }
}
