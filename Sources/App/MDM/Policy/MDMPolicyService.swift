import Foundation
import Logging
import ServiceLifecycle
import Storage

/// Runs `MDMPolicySync` while the console serves: at start, shortly after a change commits
/// that can change what a device carries (the policy generation moving, a device marked due —
/// on this console or, on PostgreSQL, another one), and once a minute anyway, when refused
/// installs whose pause is over become due again.
struct MDMPolicyService: Service {
    let sync: MDMPolicySync
    let signal: Signal
    /// How long to let more changes arrive after one wakes the sync: an admin's five quick
    /// saves, or a bulk move committing in parts, make one run.
    var gathering: Duration = .milliseconds(250)
    var lookingAnyway: Duration = .seconds(60)
    let logger: Logger

    /// Wake-ups, at most one waiting.
    struct Signal: Sendable {
        private let stream: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init() {
            (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        }

        func wake() { continuation.yield() }

        var wakeUps: AsyncStream<Void> { stream }
    }

    /// The tables whose commits wake the sync.
    static let tables: Set<String> = ["policy_generation", "mdm_policy_due"]

    func run() async throws {
        do {
            try await cancelWhenGracefulShutdown {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask {
                        while true {
                            try await Task.sleep(for: lookingAnyway)
                            try? await markRetriesDue()
                            try? await wakeDevicesStillWaiting()
                            signal.wake()
                        }
                    }
                    group.addTask { try await syncWhenWoken() }
                    try await group.next()
                    group.cancelAll()
                }
            }
        } catch is CancellationError {}
    }

    private func syncWhenWoken() async throws {
        var wakeUps = signal.wakeUps.makeAsyncIterator()
        while !Task.isCancelled {
            do {
                let summary = try await sync.run()
                if summary.installs + summary.removals + summary.replaced > 0 {
                    logger.info("Queued profile changes for devices enrolled over MDM", metadata: [
                        "devices": "\(summary.devices)", "installs": "\(summary.installs)", "removals": "\(summary.removals)",
                        "replaced": "\(summary.replaced)"])
                }
                if summary.moreDue { continue }
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // The marks and the generation stay as they were: the next run does the work.
                logger.error("Bringing devices' profiles in line with their policy failed; trying again shortly", metadata: ["error": "\(error)"])
                try await Task.sleep(for: .seconds(5))
                continue
            }
            guard await wakeUps.next() != nil else { return }
            try await Task.sleep(for: gathering)
        }
    }

    private func markRetriesDue() async throws {
        let time = sync.now()
        let waiting = try await sync.database.read { connection in
            try connection.fetch(Count.self, "SELECT count(*) AS count FROM mdm_device_profiles WHERE retryAfter IS NOT NULL AND retryAfter <= \(time)")
        }
        guard (waiting.first?.count ?? 0) > 0 else { return }
        _ = try await sync.database.write { try MDMPolicyReports.markRetriesDue(at: time, connection: $0) }
    }

    private struct Count: Codable {
        let count: Int
    }

    private func wakeDevicesStillWaiting() async throws {
        let devices = try await sync.devicesToPushAgain(at: sync.now(), every: TimeInterval(lookingAnyway.components.seconds))
        sync.wakeups?.queued(for: devices)
    }
}
