import Foundation
import Logging
import ServiceLifecycle

/// A background job that runs once every `interval` across all the consoles on one database
/// (`JobLeases`) — retention, the session sweep — rather than once per instance. Every console
/// looks every `check` whether the job is due; the one whose claim succeeds runs it, renewing
/// its claim while the work goes on, and should it die mid-run another takes the job over once
/// the claim lapses. On one console it simply runs at start and every `interval`.
struct LeasedJob: Service {
    let name: String
    let interval: Duration
    let leases: JobLeases
    let logger: Logger
    /// The work; what it returns is recorded as the run's outcome.
    let work: @Sendable () async throws -> String

    /// How often a console looks whether the job is due.
    var check: Duration { min(interval, .seconds(60)) }

    func run() async throws {
        repeat {
            await runIfDue()
        } while (try? await cancelWhenGracefulShutdown({ try await Task.sleep(for: check) })) != nil
    }

    func runIfDue() async {
        let claimed: Bool
        do {
            claimed = try await leases.claim(name, every: interval.seconds)
        } catch {
            logger.warning("Could not tell whether \(name) is due", metadata: ["error": "\(error)"])
            return
        }
        guard claimed else { return }
        let outcome: String
        do {
            outcome = try await withRenewedLease { try await work() }
        } catch {
            logger.error("\(name) failed", metadata: ["error": "\(error)"])
            outcome = "failed: \(String(describing: error).prefix(200))"
        }
        do {
            try await leases.finish(name, outcome: outcome)
        } catch {
            logger.warning("Could not record the end of \(name)", metadata: ["error": "\(error)"])
        }
    }

    /// Runs `body` while renewing the claim every third of the lease.
    private func withRenewedLease(_ body: @escaping @Sendable () async throws -> String) async throws -> String {
        try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                while !Task.isCancelled {
                    try await Task.sleep(for: .seconds(JobLeases.lease / 3))
                    if try await !leases.renew(name) {
                        logger.warning("\(name) ran past its lease; another console may have taken it over")
                    }
                }
                return nil
            }
            defer { group.cancelAll() }
            while let finished = try await group.next() {
                if let outcome = finished { return outcome }
            }
            return ""
        }
    }
}
