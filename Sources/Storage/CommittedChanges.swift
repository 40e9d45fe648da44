import CSQLite
import Synchronization

/// The rows that one committed write changed, by table, as SQLite's update hook reported them:
/// for caches of rows kept in memory, which must drop a row as soon as a change to it commits.
public struct CommittedChanges: Sendable {
    /// Row ids per table; a table whose changes were too many to list maps to nil (treat every
    /// row as changed).
    public let rows: [String: Set<Int64>?]

    public func changed(_ table: String) -> Bool { rows.keys.contains(table) }

    /// The changed row ids of `table`: empty if none changed, nil if all may have.
    public func rowIDs(in table: String) -> Set<Int64>? {
        guard let ids = rows[table] else { return [] }
        return ids
    }
}

/// Collects what the writer connection changes while a write runs, and reports it once the
/// write has committed (dropped when it rolls back). Touched only on the writer's thread.
final class ChangeTracker: @unchecked Sendable {
    private static let listLimit = 1_000
    private var pending: [String: Set<Int64>?] = [:]
    private let observers = Mutex<[@Sendable (CommittedChanges) -> Void]>([])
    /// Commits that changed rows so far (see `Database.commitCount`).
    let commits = Atomic<Int>(0)

    func attach(to connection: Connection) {
        sqlite3_update_hook(connection.handle, recordChange, Unmanaged.passUnretained(self).toOpaque())
    }

    func observe(_ observer: @escaping @Sendable (CommittedChanges) -> Void) {
        observers.withLock { $0.append(observer) }
    }

    fileprivate func record(table: String, rowID: Int64) {
        if var ids = pending[table] {
            guard ids != nil else { return }
            ids!.insert(rowID)
            pending[table] = ids!.count > Self.listLimit ? .some(nil) : ids
        } else {
            pending[table] = .some([rowID])
        }
    }

    /// After the write: report what it changed if it committed, forget it if not. The count
    /// goes up before observers run, so a reader that compares counts cannot miss a change.
    func finish(committed: Bool) {
        let changes = pending
        pending = [:]
        guard committed, !changes.isEmpty else { return }
        commits.add(1, ordering: .sequentiallyConsistent)
        let report = CommittedChanges(rows: changes)
        for observer in observers.withLock({ $0 }) { observer(report) }
    }
}

private let recordChange: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, sqlite3_int64) -> Void = {
    context, _, _, table, rowID in
    guard let context, let table else { return }
    Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue().record(table: String(cString: table), rowID: rowID)
}
