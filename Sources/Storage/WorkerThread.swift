import Foundation

/// A thread of its own that runs submitted jobs one after another.
///
/// SQLite calls block. Run on Swift's cooperative pool (one thread per core) they would hold
/// up every other task, including the ones reading requests; run here, the calling task
/// suspends and its thread goes on serving others. Each worker owns one connection, so a
/// connection is only ever used by one thread at a time.
public final class WorkerThread: @unchecked Sendable {
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [@Sendable () -> Void] = []
    private var stopping = false

    private static let currentKey = "payload-console.storage.worker"

    /// How a thread shares the cores with the threads that serve people.
    public enum Priority: Sendable {
        case normal
        /// Work machines asked for (a log flood and its index) that may wait for the cores
        /// whenever a person's request wants one: Linux's `SCHED_IDLE`, kept per thread. A
        /// nice value (10 was tried) still lets such a thread hold a core for a few
        /// milliseconds when a request wakes; an idle-class thread gives it up at once, and
        /// still gets every cycle no one else wants.
        case background
    }

    /// `name` is also the thread's name in the kernel — what `top -H`, `perf` and
    /// `/proc/PID/task/*/comm` show — where it is clipped to its first 15 bytes.
    public init(name: String, priority: Priority = .normal) {
        let thread = Thread { [self] in
            // Foundation keeps the name to itself on Linux, and Glibc's module does not export
            // pthread_setname_np; without this every worker shows the name of whichever pool
            // thread created it.
            try? String(decoding: name.utf8.prefix(15), as: UTF8.self).write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
            if priority == .background { Self.yieldToEveryOtherThread() }
            loop()
        }
        thread.name = name
        thread.start()
    }

    /// Puts the calling thread in Linux's idle scheduling class (`SCHED_IDLE`, 5 in
    /// <bits/sched.h>, which Swift's Glibc module does not export).
    private static func yieldToEveryOtherThread() {
        var parameters = sched_param(sched_priority: 0)
        _ = sched_setscheduler(0, 5, &parameters)
    }

    /// Whether the calling code runs on this worker's thread (inside one of its jobs).
    var isCurrent: Bool {
        (Thread.current.threadDictionary[Self.currentKey] as? ObjectIdentifier) == ObjectIdentifier(self)
    }

    /// Runs `job` on this thread after the jobs before it; the caller goes on at once.
    public func submit(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        jobs.append(job)
        condition.signal()
        condition.unlock()
    }

    /// Runs `body` on this thread and suspends the caller until it is done.
    public func run<T: Sendable>(_ body: () throws -> T) async throws -> T {
        try await withoutActuallyEscaping(body) { body in
            let borrowed = Borrowed(body)
            return try await withCheckedThrowingContinuation { continuation in
                submit { continuation.resume(with: borrowed.call()) }
            }
        }
    }

    /// Runs `body` on this thread and blocks the caller until it is done: for start-up, the
    /// command line and tests, never for a request.
    func runBlocking<T>(_ body: () throws -> T) throws -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<T, any Error>?
        withoutActuallyEscaping(body) { body in
            let borrowed = Borrowed(body)
            submit {
                result = borrowed.call()
                done.signal()
            }
            done.wait()
        }
        return try result!.get()
    }

    /// Lets the jobs already submitted finish, then ends the thread.
    public func stop() {
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
    }

    private func loop() {
        Thread.current.threadDictionary[Self.currentKey] = ObjectIdentifier(self)
        while true {
            condition.lock()
            while jobs.isEmpty && !stopping { condition.wait() }
            if jobs.isEmpty {
                condition.unlock()
                return
            }
            let job = jobs.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// A caller's closure lent to a job for one call. The caller waits until the job has run it,
/// so what the closure captured has one user at a time; and the job lets go of it before the
/// caller resumes, as `withoutActuallyEscaping` requires.
private final class Borrowed<T>: @unchecked Sendable {
    private var body: (() throws -> T)?

    init(_ body: @escaping () throws -> T) {
        self.body = body
    }

    func call() -> Result<T, any Error> {
        let result = Result { try body!() }
        body = nil
        return result
    }
}
