import Foundation
import Storage

/// Retention: lines older than the console's retention setting (counted from when the console
/// received them) are purged, daily by a background job (`BackgroundJobs`) and on demand from the settings
/// page, in `LogRemoval`'s small batches.
struct LogRetention: Sendable {
    let removal: LogRemoval
    let now: @Sendable () -> Date

    /// One pass with the days the settings say now; what it removed, per app, and those days.
    @discardableResult
    func purge() async throws -> (purged: [String: LogRemoval.Purged], days: Int) {
        let days = try await removal.console.read { try ConsoleSettings.load(from: $0) }.logRetentionDays
        let cutoff = now().addingTimeInterval(-Double(days) * 86_400)
        return (try await removal.purge(receivedBefore: cutoff), days)
    }

    /// A pass someone asked for ("Purge now"), theirs in the audit log as a deletion is; the
    /// daily pass is the console's and leaves only its log event.
    func purge(by actor: Actor) async throws -> (purged: [String: LogRemoval.Purged], days: Int) {
        let (purged, days) = try await purge()
        let time = now()
        try await removal.console.writeFreeingRoom { connection in
            try connection.audit(.logsPurged, subject: "older than \(days) day\(days == 1 ? "" : "s")", by: actor,
                                 after: Self.describe(purged, days: days), at: time)
        }
        return (purged, days)
    }

    /// What a pass removed, as a sentence.
    static func describe(_ purged: [String: LogRemoval.Purged], days: Int) -> String {
        let lines = purged.values.reduce(0) { $0 + $1.lines }
        guard lines > 0 else { return "No lines were older than \(days) day\(days == 1 ? "" : "s")." }
        let bytes = purged.values.reduce(0) { $0 + $1.bytes }
        return "Removed \(lines.formatted()) line\(lines == 1 ? "" : "s") (\(ByteCountText.megabytes(bytes))) from \(purged.count) app\(purged.count == 1 ? "" : "s")."
    }
}
