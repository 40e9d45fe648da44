@testable import App
import Foundation
import NIOCore
import Synchronization
import Testing

/// Uploads are machine work: decoded, checked and at the end freed on threads of their own,
/// never on the ones that answer people.
@Suite struct LogUploadDecodingTests {
    /// Tells which thread freed it.
    final class Witness: Sendable {
        let thread: @Sendable (String) -> Void

        init(_ thread: @escaping @Sendable (String) -> Void) { self.thread = thread }

        deinit { thread(currentThread()) }
    }

    static func currentThread() -> String {
        (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8))?.trimmingCharacters(in: .newlines) ?? "?"
    }

    @Test func aDiscardedValueIsFreedOnADecodingThreadAndTakenFromItsHolder() async throws {
        let decoding = LogUploadDecoding(threads: 2)
        let freedOn = Mutex<[String]>([])
        for _ in 0..<4 {
            var upload: Witness? = Witness { name in freedOn.withLock { $0.append(name) } }
            decoding.discard(&upload)
            #expect(upload == nil)
        }
        for _ in 0..<200 where freedOn.withLock({ $0.count }) < 4 { try await Task.sleep(for: .milliseconds(10)) }
        let threads = freedOn.withLock { $0 }
        #expect(threads.count == 4)
        #expect(threads.allSatisfy { $0.hasPrefix("log-decoder-") }, "freed on \(threads)")
    }

    /// Each upload makes a batch and a discard; taking turns over the threads for both alike
    /// would send every batch to the same one.
    @Test func batchesTakeTurnsOverEveryThreadBesideTheDiscards() async throws {
        let decoding = LogUploadDecoding(threads: 2)
        let body = ByteBuffer(string: LogIngestTests.line() + "\n")
        var threads: Set<String> = []
        for _ in 0..<4 {
            var decodedOn: String? = try await decoding.batch(from: body, contentType: "application/x-ndjson", contentEncoding: nil) { _ in
                Self.currentThread()
            }
            threads.insert(decodedOn ?? "?")
            decoding.discard(&decodedOn)
        }
        #expect(threads == ["log-decoder-0", "log-decoder-1"])
    }
}
