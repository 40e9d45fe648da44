import CSQLite
import Foundation
import Synchronization

/// The rows that one committed write changed, by table, as SQLite's update hook reported them:
/// for caches of rows kept in memory, which must drop a row as soon as a change to it commits.
public struct CommittedChanges: Sendable {
    /// The changed row ids per table, for tables with few enough changes to list.
    fileprivate var listed: [String: Set<Int64>] = [:]
    /// Tables with more changes than are worth listing: treat every row as changed.
    fileprivate var wholeTables: Set<String> = []

    public var isEmpty: Bool { listed.isEmpty && wholeTables.isEmpty }

    public func changed(_ table: String) -> Bool { listed[table] != nil || wholeTables.contains(table) }

    /// The changed row ids of `table`: empty if none changed, nil if any row may have.
    public func rowIDs(in table: String) -> Set<Int64>? {
        wholeTables.contains(table) ? nil : listed[table] ?? []
    }

    init() {}

    /// Every row of `tables`: what a cache must assume when it cannot know what changed.
    init(wholly tables: Set<String>) {
        wholeTables = tables
    }

    /// The changes a PostgreSQL transaction's triggers noted (`PostgresChangeCapture`), or
    /// another console announced: `table:id,` per row (`table:*,` for a row without an id),
    /// and the tables changed wholly as `,table,`.
    init(notes: some StringProtocol, wholly: some StringProtocol) {
        for table in wholly.split(separator: ",") { wholeTables.insert(String(table)) }
        for note in notes.split(separator: ",") {
            guard let colon = note.lastIndex(of: ":") else { continue }
            let table = String(note[..<colon])
            if let id = Int64(note[note.index(after: colon)...]) { add(table: table, rowID: id) } else { addWhole(table: table) }
        }
    }

    /// At most this many rows of a table are listed; past it the whole table counts as changed.
    static let listLimit = 1_000

    mutating func add(table: String, rowID: Int64) {
        guard !wholeTables.contains(table) else { return }
        listed[table, default: []].insert(rowID)
        if listed[table]!.count > Self.listLimit { addWhole(table: table) }
    }

    mutating func addWhole(table: String) {
        listed[table] = nil
        wholeTables.insert(table)
    }

    mutating func merge(_ other: CommittedChanges) {
        for table in other.wholeTables { addWhole(table: table) }
        for (table, ids) in other.listed {
            for id in ids { add(table: table, rowID: id) }
        }
    }
}

/// Collects what the writer connection changes in the tables someone watches while a write
/// runs, and reports it after the write (see `Database.onCommit`). Every other table costs the
/// update hook one string comparison per row and nothing more: a log upload changes thousands
/// of rows nobody watches. `pending` and `names` are touched only on the writer's thread.
final class ChangeTracker: @unchecked Sendable {
    private struct Observer {
        let tables: Set<String>
        let report: @Sendable (CommittedChanges) -> Void
    }

    private let observers = Mutex<[Observer]>([])
    /// Bumped when an observer is added, so the writer's thread reloads `names`.
    private let observersVersion = Atomic<Int>(0)
    private var names: [(cString: ContiguousArray<CChar>, name: String)] = []
    private var namesVersion = -1
    private var pending = CommittedChanges()
    /// Writes that changed a watched table so far (see `Database.commitCount`).
    let commits = Atomic<Int>(0)
    /// On PostgreSQL: the change triggers could not be installed, so every write that changed
    /// rows reports every watched table (`recordUnknownChange`).
    var captureFailed: Bool {
        get { captureFailure.load(ordering: .relaxed) }
        set { captureFailure.store(newValue, ordering: .relaxed) }
    }
    private let captureFailure = Atomic<Bool>(false)

    func attach(to connection: SQLiteConnection) {
        sqlite3_update_hook(connection.handle, recordChange, Unmanaged.passUnretained(self).toOpaque())
    }

    func observe(tables: Set<String>, _ report: @escaping @Sendable (CommittedChanges) -> Void) {
        observers.withLock { $0.append(Observer(tables: tables, report: report)) }
        observersVersion.add(1, ordering: .sequentiallyConsistent)
    }

    /// The watched table that `table` names, if any, without allocating for the others.
    fileprivate func watched(_ table: UnsafePointer<CChar>) -> String? {
        let version = observersVersion.load(ordering: .sequentiallyConsistent)
        if version != namesVersion {
            let tables = observers.withLock { $0.reduce(into: Set<String>()) { $0.formUnion($1.tables) } }
            names = tables.map { (ContiguousArray($0.utf8CString), $0) }
            namesVersion = version
        }
        return names.first { entry in entry.cString.withUnsafeBufferPointer { strcmp($0.baseAddress!, table) == 0 } }?.name
    }

    /// A statement changed rows, on a backend without an update hook (PostgreSQL): every
    /// watched table may have changed, wholly. Its text would name one table, but not what
    /// that table's triggers changed (`policy_generation` moves with profile assignments) nor
    /// what went with deleted rows; caches drop more than they must, never too little.
    func recordUnknownChange() {
        pending = CommittedChanges(wholly: watchedTables)
    }

    /// Whether any observer watches a table.
    var isWatching: Bool { observers.withLock { !$0.isEmpty } }

    var watchedTables: Set<String> { observers.withLock { $0.reduce(into: Set<String>()) { $0.formUnion($1.tables) } } }

    func record(table: String, rowID: Int64) {
        pending.add(table: table, rowID: rowID)
    }

    /// A watched table whose changed rows cannot be listed changed (`SQLiteChangeCapture`).
    func recordWhole(table: String) {
        pending.addWhole(table: table)
    }

    /// What a PostgreSQL transaction's triggers noted (`PostgresChangeCapture.collect`).
    func record(_ changes: CommittedChanges) {
        pending.merge(changes)
    }

    /// After a write: report what it changed. A write that failed is reported too — it may have
    /// committed some statements before failing, and a cache dropping an entry too many is
    /// harmless. The count goes up before observers run, so a reader that compares counts
    /// cannot miss a change.
    func finish() {
        let report = pending
        pending = CommittedChanges()
        deliver(report)
    }

    /// Reports changes to the observers watching them: a write's own, or what another console
    /// committed on the same PostgreSQL database (`PostgresChangeListener`).
    func deliver(_ report: CommittedChanges) {
        guard !report.isEmpty else { return }
        commits.add(1, ordering: .sequentiallyConsistent)
        for observer in observers.withLock({ $0 }) where observer.tables.contains(where: report.changed) { observer.report(report) }
    }
}

private let recordChange: @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?, UnsafePointer<CChar>?, sqlite3_int64) -> Void = {
    context, _, _, table, rowID in
    guard let context, let table else { return }
    let tracker = Unmanaged<ChangeTracker>.fromOpaque(context).takeUnretainedValue()
    if let name = tracker.watched(table) { tracker.record(table: name, rowID: rowID) }
}
