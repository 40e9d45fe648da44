import Foundation
import Logging
import Push
import Storage
import Synchronization

/// Wakes enrolled devices through Apple's push service when commands are queued for them:
/// once the queuing committed (`CommandWakeups`), in the background, many pushes at once
/// over one HTTP/2 connection. A device woken checks in and takes its commands.
///
/// A token the service says is dead is marked on the device (its page says so) and not
/// pushed to again until the device sends a new one; a 429 or a fault on the service's side
/// is tried again after a pause, a few times.
final class MDMPushDispatcher: Sendable {
    private let database: Database
    private let client: PushClient
    private let trustRootsPEM: String?
    private let logger: Logger
    private let now: @Sendable () -> Date
    private let identity = Mutex<PushIdentity?>(nil)

    /// Pushes in flight at once: one connection's worth of streams, well under the limit
    /// Apple's service sets per connection.
    static let concurrentPushes = 500
    static let retryPauses: [Duration] = [.milliseconds(500), .seconds(2), .seconds(8)]
    /// Devices read per query: bounded SQL, whatever the size of a bulk action.
    static let readChunk = 1_000

    init(database: Database, client: PushClient, trustRootsPEM: String?, logger: Logger, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.client = client
        self.trustRootsPEM = trustRootsPEM
        self.logger = logger
        self.now = now
    }

    /// What one round of pushes did, for the log and for tests.
    struct Summary: Sendable, Equatable {
        var delivered = 0
        var deadTokens = 0
        var failed = 0
        /// Enrolled devices without a live token, or without a push certificate to push with.
        var skipped = 0
    }

    func wake(_ devices: [RecordID<DeviceRecord>]) {
        Task { _ = await self.push(to: devices) }
    }

    private struct Target: Sendable {
        let deviceID: RecordID<DeviceRecord>
        let token: [UInt8]
        let pushMagic: String
        let topic: String
    }

    func push(to devices: [RecordID<DeviceRecord>]) async -> Summary {
        var summary = Summary()
        do {
            let (targets, skipped) = try await targets(for: devices)
            summary.skipped = skipped
            guard !targets.isEmpty else { return summary }
            guard let identity = try await currentIdentity() else {
                logger.notice("Commands were queued for devices enrolled over MDM, but no push certificate is uploaded: they wait for the devices' own check-ins",
                              metadata: ["devices": "\(targets.count)"])
                summary.skipped += targets.count
                return summary
            }
            var dead: [(Target, String)] = []
            await withTaskGroup(of: (Target, PushClient.Outcome).self) { group in
                var iterator = targets.makeIterator()
                for _ in 0..<Self.concurrentPushes {
                    guard let target = iterator.next() else { break }
                    group.addTask { (target, await self.pushWithRetries(target, identity: identity)) }
                }
                for await (target, outcome) in group {
                    switch outcome {
                    case .delivered: summary.delivered += 1
                    case .tokenDead(let reason): summary.deadTokens += 1; dead.append((target, reason))
                    case .retryLater(let reason), .refused(_, let reason):
                        summary.failed += 1
                        logger.warning("A push was not delivered", metadata: ["device": "\(target.deviceID)", "reason": "\(reason)"])
                    }
                    if let next = iterator.next() {
                        group.addTask { (next, await self.pushWithRetries(next, identity: identity)) }
                    }
                }
            }
            try await markDead(dead)
        } catch {
            logger.error("Pushing to devices failed", metadata: ["error": "\(error)"])
            summary.failed += devices.count - summary.delivered - summary.deadTokens - summary.skipped
        }
        return summary
    }

    private func pushWithRetries(_ target: Target, identity: PushIdentity) async -> PushClient.Outcome {
        var outcome = await client.push(token: target.token, pushMagic: target.pushMagic, topic: target.topic, identity: identity)
        for pause in Self.retryPauses {
            guard case .retryLater = outcome else { return outcome }
            try? await Task.sleep(for: pause)
            outcome = await client.push(token: target.token, pushMagic: target.pushMagic, topic: target.topic, identity: identity)
        }
        return outcome
    }

    /// The enrolled devices among `devices` with a live token; how many others were enrolled without one.
    private func targets(for devices: [RecordID<DeviceRecord>]) async throws -> ([Target], Int) {
        var targets: [Target] = [], skipped = 0
        for start in stride(from: 0, to: devices.count, by: Self.readChunk) {
            let chunk = Array(devices[start..<min(start + Self.readChunk, devices.count)])
            // The columns a push needs, not the rows: each holds its inventory, a JSON document.
            let query: SQL = "SELECT deviceID, pushToken, pushMagic, pushTokenDeadAt, topic FROM mdm_devices WHERE state = 'enrolled' AND deviceID IN (\(list: chunk))"
            let rows = try await database.read { connection in try connection.fetch(PushColumns.self, query) }
            for row in rows {
                if let token = row.pushToken, let magic = row.pushMagic, row.pushTokenDeadAt == nil {
                    targets.append(Target(deviceID: row.deviceID, token: Array(token), pushMagic: magic, topic: row.topic))
                } else {
                    skipped += 1
                }
            }
        }
        return (targets, skipped)
    }

    private struct PushColumns: Codable {
        let deviceID: RecordID<DeviceRecord>
        let pushToken: Data?
        let pushMagic: String?
        let pushTokenDeadAt: Date?
        let topic: String
    }

    /// The stored push certificate as a TLS identity, made again only when another was uploaded
    /// (through any console).
    private func currentIdentity() async throws -> PushIdentity? {
        guard let stored = try await database.read({ try $0.find(StoredPushCertificate.self, id: StoredPushCertificate.onlyID) }) else { return nil }
        if let cached = identity.withLock({ $0 }), cached.fingerprint == stored.fingerprint { return cached }
        let made = try PushIdentity(certificatePEM: stored.certificatePEM, privateKeyPEM: stored.privateKeyPEM, fingerprint: stored.fingerprint,
                                    trustRootsPEM: trustRootsPEM)
        identity.withLock { $0 = made }
        return made
    }

    /// Marks each token dead unless the device sent a new one meanwhile.
    private func markDead(_ dead: [(Target, String)]) async throws {
        guard !dead.isEmpty else { return }
        let time = now()
        try await database.write { connection in
            for (target, reason) in dead {
                _ = try connection.execute("""
                    UPDATE mdm_devices SET pushTokenDeadAt = \(time), pushTokenDeadReason = \(String(reason.prefix(200)))
                    WHERE deviceID = \(target.deviceID) AND pushToken = \(Data(target.token))
                    """)
            }
        }
    }
}
