import Dispatch
import Logging
import NIOCore
import PostgresNIO

/// A request that never reached PostgreSQL because its connection had closed (a server
/// restart, a dropped network): handled as a lost connection is.
struct ClosedBeforeSending: Error, CustomStringConvertible {
    var description: String { "the connection to PostgreSQL had closed before the statement was sent" }
}

extension PostgresConnection {
    /// Hands a request to the connection on its event loop, and only while it is open.
    ///
    /// The driver writes each request to its channel without asking whether the write was
    /// taken. Once a closed channel has let go of its handlers, a request written to it is
    /// dropped with its promise never completed: whoever waits for the answer waits for ever,
    /// and a debug build stops the process when the promise is released ("leaking promise").
    /// A statement sent from a session's thread just as the server closed the connection was
    /// written after that; it stopped the test process during a database outage. On the event
    /// loop, a channel still open has its handlers, and they fail a request cleanly however
    /// the connection closes afterwards.
    func whileOpen<Value: Sendable>(_ request: @escaping @Sendable (PostgresConnection) -> EventLoopFuture<Value>) -> EventLoopFuture<Value> {
        eventLoop.flatSubmit {
            guard !self.isClosed else { return self.eventLoop.makeFailedFuture(ClosedBeforeSending()) }
            return request(self)
        }
    }

    /// Sends `requests` in one hop to the event loop (each only while the connection is open,
    /// as `whileOpen` does) and blocks the calling thread until they and `earlier` have all
    /// answered, in that order. The thread sleeps and wakes once: `EventLoopFuture.wait()` hops
    /// to the event loop for every future it waits for, to hang its callback there, and on a
    /// 2-core machine each hop is a thread switch a page pays for.
    func sendAndWait<Value: Sendable>(_ requests: [@Sendable (PostgresConnection) -> EventLoopFuture<Value>],
                                      after earlier: [EventLoopFuture<Value>]) -> [Result<Value, any Error>] {
        let answered = DispatchSemaphore(value: 0)
        let results = Answers<Value>()
        eventLoop.execute {
            let sent = requests.map { request in self.isClosed ? self.eventLoop.makeFailedFuture(ClosedBeforeSending()) : request(self) }
            EventLoopFuture.whenAllComplete(earlier + sent, on: self.eventLoop).whenSuccess { all in
                results.all = all
                answered.signal()
            }
        }
        answered.wait()
        return results.all
    }

    /// Sends `rows` (COPY's text format, a line each) into `table`.
    ///
    /// The driver's COPY is asynchronous and writes its request from wherever its task runs,
    /// so `whileOpen` cannot guard it; a request lost to a connection closing at that moment
    /// would leave the task suspended for ever. The answer therefore also fails when the
    /// connection closes: the caller goes on, and only that suspended task is lost.
    func copy(_ rows: ByteBuffer, into table: String, columns: [String], logger: Logger) -> EventLoopFuture<Void> {
        guard !isClosed else { return eventLoop.makeFailedFuture(ClosedBeforeSending()) }
        let done = eventLoop.makePromise(of: Void.self)
        closeFuture.whenComplete { _ in done.fail(ClosedBeforeSending()) }
        Task(executorPreference: CopyTaskExecutor.shared) {
            do {
                try await self.copyFrom(table: table, columns: columns, logger: logger) { writer in
                    try await writer.write(rows)
                }
                done.succeed(())
            } catch {
                done.fail(error)
            }
        }
        return done.futureResult
    }
}

/// The answers `sendAndWait` hands from the event loop to the waiting thread; the semaphore
/// orders the write before the read.
private final class Answers<Value: Sendable>: @unchecked Sendable {
    var all: [Result<Value, any Error>] = []
}
