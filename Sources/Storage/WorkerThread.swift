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

    /// `niceness` above 0 lowers this thread's scheduling priority (Linux keeps a nice value per
    /// thread): background work that must not take the cores from people's requests.
    public init(name: String, niceness: Int32 = 0) {
        let thread = Thread { [self] in
            if niceness > 0 { _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness) }
            loop()
        }
        thread.name = name
        thread.start()
    }

    /// Whether the calling code runs on this worker's thread (inside one of its jobs).
    var isCurrent: Bool {
        (Thread.current.threadDictionary[Self.currentKey] as? ObjectIdentifier) == ObjectIdentifier(self)
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
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
