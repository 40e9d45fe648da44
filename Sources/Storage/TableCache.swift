import Synchronization

/// A value read whole from tables that change rarely and are read on every page of a kind —
/// the groups, the app catalog, the settings — kept in memory, so a page reads them without a
/// statement (on PostgreSQL, without a round trip each).
///
/// It is dropped as soon as a write that changed one of `tables` commits (`Database.onCommit`):
/// in this console at once, and on PostgreSQL, for another console's write on the same
/// database, moments later when its announcement arrives. A value is kept only when read by a
/// `read` during which no watched write committed (the transaction's `commitsAtStart`), so a
/// value read just before a change commits is never kept after the change has been reported.
/// What a write reads is used, never kept.
public final class TableCache<Value: Sendable>: Sendable {
    private let database: Database
    private let load: @Sendable (Connection) throws -> Value
    private let kept = Mutex<Value?>(nil)

    /// `load` reads the value with the connection it is given, inside the caller's transaction.
    public init(_ database: Database, tables: Set<String>, load: @escaping @Sendable (Connection) throws -> Value) {
        self.database = database
        self.load = load
        database.onCommit(tables: tables) { [weak self] _ in self?.kept.withLock { $0 = nil } }
    }

    /// The value, from memory or read with `connection` (and then kept, if it may be).
    public func value(in connection: Connection) throws -> Value {
        if let value = kept.withLock({ $0 }) { return value }
        let value = try load(connection)
        let mark = connection.commitsAtStart
        kept.withLock { kept in
            // A change that committed since the read began was reported, or is being: what was
            // read may predate it.
            if database.isUnchanged(since: mark) { kept = value }
        }
        return value
    }

    /// Whether a value is held now, for tests.
    public var isHeld: Bool { kept.withLock { $0 != nil } }
}
