import Foundation
import Storage
import Synchronization

/// Quiet devices' last-seen times, written together. Each device's minute comes round on its
/// own, but a fleet's come round in bursts (every device woken by one bulk action checks in
/// within seconds of the others): on SQLite the first write to reach the writer takes every
/// device waiting by then and updates them in one transaction, and each Idle is answered once
/// that transaction has committed. On PostgreSQL each write goes alone: several writers run
/// at once there, and rows taken in batches by two of them could wait on each other.
final class MDMLastSeenWrites: Sendable {
    private let database: Database
    private let quietDevices: MDMQuietDevices
    private let waiting = Mutex<[Entry]>([])

    init(database: Database, quietDevices: MDMQuietDevices) {
        self.database = database
        self.quietDevices = quietDevices
    }

    /// Writes that the device was seen at `time`, with any others waiting, and keeps it known
    /// quiet with that time (`MDMQuietDevices.seen`) when nothing else committed meanwhile.
    func record(_ deviceID: RecordID<DeviceRecord>, _ quiet: MDMQuietDevices.Quiet, at time: Date) async throws {
        let entry = Entry(deviceID: deviceID, quiet: quiet, time: time)
        if database.dialect == .postgres {
            try await commit { [entry] }
        } else {
            waiting.withLock { $0.append(entry) }
            // This write may find the queue empty (an earlier one took this entry) or take others'.
            do {
                try await commit { self.waiting.withLock { queue in defer { queue.removeAll() }; return queue } }
            } catch {
                // Not begun: if this entry is still queued, nothing of it was written.
                let stillQueued = waiting.withLock { queue in
                    guard let index = queue.firstIndex(where: { $0 === entry }) else { return false }
                    queue.remove(at: index)
                    return true
                }
                if stillQueued { entry.finish(.failure(error)) }
            }
        }
        try await entry.written()
    }

    /// One bookkeeping transaction for the entries `take` hands over on the writer's thread;
    /// each hears once it has committed, or why it did not.
    private func commit(_ take: @escaping @Sendable () -> [Entry]) async throws {
        let taken = Taken()
        do {
            try await database.writeBookkeeping { connection in
                let entries = take()
                taken.state.withLock { $0 = (entries, database.commitCount) }
                for entry in entries {
                    _ = try connection.execute("UPDATE mdm_devices SET lastSeenAt = \(entry.time) WHERE deviceID = \(entry.deviceID)")
                    try connection.recordCheckIn(of: entry.deviceID, at: entry.time)
                }
            }
        } catch {
            for entry in taken.state.withLock({ $0.entries }) { entry.finish(.failure(error)) }
            throw error
        }
        let (entries, stamp) = taken.state.withLock { $0 }
        for entry in entries {
            quietDevices.seen(entry.deviceID, entry.quiet, at: entry.time, onlyWriteSince: stamp)
            entry.finish(.success(()))
        }
    }

    /// What a transaction took, set on the writer's thread: the entries, and the commit count
    /// before it.
    private final class Taken: Sendable {
        let state = Mutex<(entries: [Entry], stamp: Int)>(([], 0))
    }

    private final class Entry: Sendable {
        let deviceID: RecordID<DeviceRecord>
        let quiet: MDMQuietDevices.Quiet
        let time: Date
        private let outcome = CommitOutcome<Void>()

        init(deviceID: RecordID<DeviceRecord>, quiet: MDMQuietDevices.Quiet, time: Date) {
            self.deviceID = deviceID
            self.quiet = quiet
            self.time = time
        }

        func finish(_ result: Result<Void, any Error>) { outcome.finish(result) }
        func written() async throws { try await outcome.value() }
    }
}
