import ArgumentParser
import Foundation
import Push

/// Pushes as fast as the push client goes, to a stand-in for Apple's service, with the
/// dispatcher's concurrency: the push client's own rate, apart from the console's queueing.
struct PushFlood: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "push-flood", abstract: "Send many pushes to a push service stand-in and time them.")

    @Option var url: String
    @Option(help: "The push certificate and its key, PEM.")
    var identity: String
    @Option(help: "The stand-in's CA, PEM.")
    var ca: String
    @Option var count = 10_000
    @Option var concurrency = 500

    func run() async throws {
        let pem = try String(contentsOfFile: identity, encoding: .utf8)
        let pushIdentity = try PushIdentity(certificatePEM: pem, privateKeyPEM: pem, fingerprint: "bench",
                                            trustRootsPEM: try String(contentsOfFile: ca, encoding: .utf8))
        let client = PushClient(baseURL: url)
        // One push first: the connection is made before the clock starts.
        _ = await client.push(token: [1, 2, 3], pushMagic: "warm", topic: "com.apple.mgmt.bench", identity: pushIdentity)
        let started = ContinuousClock.now
        var delivered = 0, other = 0, reasons: [String: Int] = [:]
        await withTaskGroup(of: PushClient.Outcome.self) { group in
            var sent = 0
            func next() {
                let index = sent
                sent += 1
                let token = withUnsafeBytes(of: UInt64(index).bigEndian) { Array($0) } + [UInt8](repeating: 0xAB, count: 24)
                group.addTask { await client.push(token: token, pushMagic: "magic-\(index)", topic: "com.apple.mgmt.bench", identity: pushIdentity) }
            }
            for _ in 0..<min(concurrency, count) { next() }
            for await outcome in group {
                if outcome == .delivered { delivered += 1 } else { other += 1; reasons["\(outcome)".prefix(200).description, default: 0] += 1 }
                if sent < count { next() }
            }
        }
        let seconds = Double((ContinuousClock.now - started).components.attoseconds) / 1e18 + Double((ContinuousClock.now - started).components.seconds)
        for (reason, times) in reasons { print("\(times) × \(reason)") }
        print(String(format: "push-flood: %d pushes (%d delivered, %d not) in %.2f s: %.0f pushes/s", count, delivered, other, seconds, Double(count) / seconds))
    }
}
