import Foundation
import Logging
import ServiceLifecycle

/// The console's background jobs, each run once across all the consoles on one database
/// (`LeasedJob`), whichever instance gets to it.
enum BackgroundJobs {
    /// Expired sessions go hourly (lookups already ignore them), so a long-running console's
    /// table holds only live ones.
    static func sessionSweep(_ sessions: SessionStore, leases: JobLeases, interval: Duration = .seconds(3600), logger: Logger) -> LeasedJob {
        LeasedJob(name: "session-sweep", interval: interval, leases: leases, logger: logger) {
            let removed = try await sessions.deleteExpired()
            if removed > 0 { logger.info("Removed expired sessions", metadata: ["count": "\(removed)"]) }
            return "Removed \(removed) expired session\(removed == 1 ? "" : "s")."
        }
    }

    /// Log lines older than the retention setting go daily.
    static func logRetention(_ retention: LogRetention, leases: JobLeases, logger: Logger) -> LeasedJob {
        LeasedJob(name: "log-retention", interval: .seconds(86_400), leases: leases, logger: logger) {
            let (purged, days) = try await retention.purge()
            if !purged.isEmpty {
                logger.info("Retention removed old log lines", metadata: ["lines": "\(purged.values.reduce(0) { $0 + $1.lines })"])
            }
            return LogRetention.describe(purged, days: days)
        }
    }

    /// Images nothing refers to any more (the logos of deleted profiles, uploads whose form
    /// was left unsaved a day ago) go daily.
    static func imageSweep(_ images: ImageStore, leases: JobLeases, logger: Logger) -> LeasedJob {
        LeasedJob(name: "image-sweep", interval: .seconds(86_400), leases: leases, logger: logger) {
            let (count, bytes) = try await images.deleteUnreferenced(uploadedBefore: images.now().addingTimeInterval(-86_400))
            if count > 0 { logger.info("Removed images nothing refers to", metadata: ["count": "\(count)", "bytes": "\(bytes)"]) }
            return "Removed \(count) image\(count == 1 ? "" : "s") nothing refers to (\(ByteCountText.megabytes(bytes)))."
        }
    }

    /// Real devices report their inventory daily (what their page shows).
    static func mdmInventory(_ refresh: MDMInventoryRefresh, leases: JobLeases, logger: Logger) -> LeasedJob {
        LeasedJob(name: "mdm-inventory", interval: .seconds(3600), leases: leases, logger: logger) {
            let asked = try await refresh.refresh()
            return "Asked \(asked) device\(asked == 1 ? "" : "s") for their inventory."
        }
    }

    /// This console among the instances on one database: its host and process.
    static let instanceName = "\(ProcessInfo.processInfo.hostName)/\(ProcessInfo.processInfo.processIdentifier)"
}
