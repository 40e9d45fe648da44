import CSQLite

/// Every statement a connection runs looks up from its work every `instructionsBetweenLooks`
/// (SQLite's progress handler): to stop, when the read it belongs to was cancelled
/// (`ReadCancellation`), and now and then to give way to a thread waiting for its core
/// (`GiveWay`) — a scan of the unindexed log tail, an index merge or a batch of inserts holds a
/// core for hundreds of milliseconds.
extension SQLiteConnection {
    /// A few microseconds of work: a look costs a function call and a load or two.
    static let instructionsBetweenLooks: Int32 = 1000
    /// About 0.15 ms of a scan between two yields (measured: a scan of the unindexed log tail
    /// yielded some 6,700 times a second of its CPU).
    static let looksBetweenYields = 5
    /// A row of the log table is about 8 µs of inserting.
    static let rowsBetweenYields = 16

    /// SQLite's progress handler: whether to stop the running statement.
    func look() -> Bool {
        looks.step()
        return cancellation?.stopsStatement() ?? false
    }

    /// How many times this connection's statements gave way, which is how a test sees that
    /// long statements do.
    var timesGivenWay: Int { looks.times + rowsGivenWay }
}
