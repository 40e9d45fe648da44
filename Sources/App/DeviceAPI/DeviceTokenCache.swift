import Storage
import Synchronization

/// Devices by the hash of their check-in token, kept in memory so that a device checking in
/// again needs no database read: the read is a hand-off to a reader thread and back, which
/// was most of a check-in's cost.
///
/// An entry goes as soon as a write that changes its device row, or the policy generation,
/// commits (`Database.onCommit`), and a row read while any write committed is not kept, so an
/// answer is never older than the last committed change. On PostgreSQL, what another console
/// on the same database commits arrives the same way moments later (`PostgresChangeListener`);
/// on SQLite the console is the only process that writes devices.
final class DeviceTokenCache: Sendable {
    private struct Entries {
        var byHash: [String: CheckingInDevice] = [:]
        var hashByDevice: [Int64: String] = [:]
    }

    private let database: Database
    private let entries = Mutex(Entries())

    init(database: Database) {
        self.database = database
        database.onCommit(tables: [DeviceRecord.tableName, "policy_generation"]) { [weak self] changes in self?.drop(changes) }
    }

    func device(forToken token: String) async throws -> CheckingInDevice? {
        guard token.hasPrefix(DeviceTokens.prefix) else { return nil }
        let hash = SecretToken.digest(token)
        if let known = entries.withLock({ $0.byHash[hash] }) { return known }
        let stamp = database.commitCount
        guard let found = try await DeviceTokens.find(hash: hash, in: database) else { return nil }
        entries.withLock { entries in
            // A write that committed since the read began may have changed this row; its
            // `onCommit` has run or is about to, so keeping the row now could outlive it.
            guard database.commitCount == stamp else { return }
            entries.byHash[hash] = found
            entries.hashByDevice[found.id.rawValue] = hash
        }
        return found
    }

    private func drop(_ changes: CommittedChanges) {
        entries.withLock { entries in
            guard !changes.changed("policy_generation"), let ids = changes.rowIDs(in: DeviceRecord.tableName) else {
                entries = Entries()
                return
            }
            for id in ids {
                if let hash = entries.hashByDevice.removeValue(forKey: id) { entries.byHash[hash] = nil }
            }
        }
    }
}
