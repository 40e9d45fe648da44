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
    let signal: WakeSignal
    /// How long to let more changes arrive after one wakes the sync: an admin's five quick
    /// saves, or a bulk move committing in parts, make one run.
    var gathering: Duration = .milliseconds(250)
    var lookingAnyway: Duration = .seconds(60)
    let logger: Logger

    /// The tables whose commits wake the sync.
    static let tables: Set<String> = ["policy_generation", "mdm_policy_due"]

    func run() async throws {
        try await signal.run(every: lookingAnyway, onTick: {
            try? await markRetriesDue()
            try? await wakeDevicesStillWaiting()
            try? await followUpInstalls()
        }) { try await syncWhenWoken() }
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

    /// Read first: most minutes nothing is ready, and that costs no write.
    private func markRetriesDue() async throws {
        let time = sync.now()
        let ready = try await sync.database.read { try MDMPolicyReports.readyToRetry(at: time, connection: $0) }
        guard !ready.isEmpty else { return }
        try await sync.database.write { try MDMPolicyReports.markDue(ready, connection: $0) }
    }

    /// Asks devices with an install under way for their list again (and gives up on one a day
    /// old); the devices asked are woken.
    private func followUpInstalls() async throws {
        let time = sync.now()
        let interval = TimeInterval(lookingAnyway.components.seconds)
        let underWay = try await sync.database.read { try MDMAppInstalls.underWay(connection: $0) }
        guard !underWay.isEmpty else { return }
        let asked = try await sync.database.write { try MDMAppInstalls.followUp(underWay, at: time, every: interval, connection: $0) }
        sync.wakeups?.queued(for: asked)
    }

    private func wakeDevicesStillWaiting() async throws {
        let devices = try await sync.devicesToPushAgain(at: sync.now(), every: TimeInterval(lookingAnyway.components.seconds))
        sync.wakeups?.queued(for: devices)
    }
}
