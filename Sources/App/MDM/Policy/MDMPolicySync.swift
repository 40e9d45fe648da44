import Domain
import Foundation
import Storage

/// Brings real devices' profiles in line with their effective policy: for each enrolled device
/// that is due (every one after a policy change), compares what it should carry
/// (`MDMPolicyPlan`) with what it holds and what is on its way (`mdm_device_profiles`), and
/// queues InstallProfile or RemoveProfile for the difference — all devices in one transaction,
/// then one wake-up for them all.
///
/// It is idempotent: run twice, or by two consoles that both heard a change, it queues one set
/// of commands (they take turns on one lock and each compares with what the other queued). An
/// install still waiting to be sent is replaced in place by a newer one, so five saves in a
/// minute send each device one install. An install the device refused is tried again after a
/// pause that grows with each refusal, never in a loop.
struct MDMPolicySync: Sendable {
    let database: Database
    let signing: SigningService
    let contents: ProfileContentCache
    let now: @Sendable () -> Date
    var wakeups: CommandWakeups?

    /// What one run did, for the log and for tests.
    struct Summary: Equatable, Sendable {
        var devices = 0
        var installs = 0
        var removals = 0
        /// Settings commands carrying (or removing) an app's configuration.
        var configurations = 0
        /// InstallApplication commands for apps the policy needs.
        var appInstalls = 0
        /// Waiting installs given newer content (or taken back) instead of queuing another.
        var replaced = 0
        /// Whether due marks were left for the next run.
        var moreDue = false
    }

    static let lockName = "mdm-policy-sync"
    /// Queued by: what the command history says.
    static let queuedBy = "Policy"

    @discardableResult
    func run() async throws -> Summary {
        let plan = try await database.read { try MDMPolicyPlan.read(connection: $0, contents: contents) }
        guard plan.everyDevice || !plan.dueMarks.isEmpty else { return Summary() }
        let signed = try await signedDocuments(plan.documents)
        let time = now()
        let (summary, woken) = try await database.write { connection in
            try connection.lock(Self.lockName)
            try store(signed, plan: plan, at: time, connection: connection)
            var apply = MDMPolicyApply(connection: connection, at: time)
            try apply.bring(plan.devices)
            try connection.execute("DELETE FROM mdm_policy_due WHERE id = ? AND version = ?",
                                   forEachOf: plan.dueMarks.map { [$0.id.sqliteValue, .integer($0.version)] })
            if plan.everyDevice {
                try connection.execute("UPDATE mdm_policy_sync SET generation = \(plan.generation) WHERE id = 1")
            }
            var summary = apply.summary
            summary.moreDue = !plan.everyDevice && plan.dueMarks.count >= MDMPolicyPlan.dueBatch
            return (summary, apply.woken)
        }
        wakeups?.queued(for: woken)
        return summary
    }

    /// The documents not stored yet, signed (outside the transaction: signing is the slow part,
    /// and most runs find every document stored).
    private func signedDocuments(_ documents: [String: MDMPolicyPlan.Document]) async throws -> [String: [UInt8]] {
        guard !documents.isEmpty else { return [:] }
        let digests = Array(documents.keys)
        let stored = try await database.read { connection in
            try Set(connection.fetch(Digest.self, "SELECT digest FROM mdm_profile_documents WHERE digest IN (\(list: digests))").map(\.digest))
        }
        var signed: [String: [UInt8]] = [:]
        for (digest, document) in documents where !stored.contains(digest) {
            signed[digest] = document.signs ? try await signing.sign(document.xml) : document.xml
        }
        return signed
    }

    private struct Digest: Codable {
        let digest: String
    }

    private func store(_ signed: [String: [UInt8]], plan: MDMPolicyPlan, at time: Date, connection: Connection) throws {
        guard !signed.isEmpty else { return }
        let present = Set(try connection.fetch(Digest.self, "SELECT digest FROM mdm_profile_documents WHERE digest IN (\(list: Array(signed.keys)))").map(\.digest))
        for (digest, bytes) in signed.sorted(by: { $0.key < $1.key }) where !present.contains(digest) {
            guard let document = plan.documents[digest] else { continue }
            _ = try connection.insert(MDMProfileDocumentRecord(digest: digest, identifier: document.identifier, displayName: document.displayName,
                                                               signed: Data(bytes), createdAt: time))
        }
    }

    /// How long after a policy command was queued, unsent, its device is pushed again: a push
    /// can be lost (the console that queued it stopped before pushing, the device was off and
    /// Apple kept only the last push). Each device is pushed once as its command passes each
    /// age, which needs no record of pushes and never becomes a push a minute.
    static let pushAgainAfter: [TimeInterval] = [5 * 60, 3600, 6 * 3600, 86_400]

    /// The devices whose oldest unsent policy command passed one of those ages in the last
    /// `interval` (how often the caller asks).
    func devicesToPushAgain(at time: Date, every interval: TimeInterval) async throws -> [RecordID<DeviceRecord>] {
        struct Waiting: Codable { let deviceID: RecordID<DeviceRecord> }
        // One statement over the waiting commands' partial index (the whole command history is
        // no business of a minute's tick), each age a window of `interval`.
        var windows = SQL(verbatim: "")
        for (index, age) in Self.pushAgainAfter.enumerated() {
            if index > 0 { windows.append(" OR ") }
            windows.append("(queuedAt > \(time.addingTimeInterval(-age - interval)) AND queuedAt <= \(time.addingTimeInterval(-age)))")
        }
        let devices = try await database.read { [windows] connection in
            try connection.fetch(Waiting.self, """
                SELECT DISTINCT deviceID FROM device_commands WHERE \(CommandQueue.waitingCondition) AND status = 'queued'
                AND queuedBy = \(Self.queuedBy) AND (\(windows))
                """).map(\.deviceID)
        }
        return Array(Set(devices)).sorted { $0.rawValue < $1.rawValue }
    }
}
