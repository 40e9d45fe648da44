import Foundation
import Storage

/// Brings the full-text index up to the log table, behind the writer: an upload is stored and
/// acknowledged without touching the index, and this adds the lines after the indexer's mark
/// in large batches (FTS5 writes one segment per transaction, so large batches mean fewer
/// segments to merge). The lines and the mark move in one transaction: a crash, even `kill -9`
/// mid-batch, leaves both where they were, and the next run resumes at the mark, so no line is
/// indexed twice or missed.
package struct LogIndexer: Sendable {
    let logs: Database

    package init(logs: Database) {
        self.logs = logs
    }

    /// Lines a transaction takes. Uploads queued behind one wait for it, so it is kept to
    /// tens of milliseconds (Benchmarks/README.md, "The log store behind its writer").
    static let batchSize = 5_000

    /// Indexes up to `limit` of the oldest unindexed lines; returns how many it indexed.
    @discardableResult
    func indexNext(limit: Int = Self.batchSize) async throws -> Int {
        try await logs.write { connection in
            let mark = try LogQueries.indexedThrough(in: connection)
            guard let through = try connection.scalar(LogQueries.lastOfNext(limit, after: mark), as: Int64.self) else { return 0 }
            let indexed = try connection.execute(LogQueries.index(after: mark, through: RecordID(through)))
            try connection.execute(LogQueries.moveIndexMark(to: RecordID(through)))
            return indexed
        }
    }

    /// Indexes until nothing is left; returns how many lines it indexed. For tests and the
    /// command line; the service indexes a batch at a time.
    @discardableResult
    package func catchUp() async throws -> Int {
        var total = 0
        while true {
            let indexed = try await indexNext()
            total += indexed
            if indexed == 0 { return total }
        }
    }

    /// How far the index is behind the table.
    func lag() async throws -> LogIndexLag {
        try await logs.read { try LogIndexLag.read(in: $0) }
    }
}

/// How far the full-text index is behind the log table: lines stored and acknowledged but not
/// yet indexed. Searches still find them (`LogQueries` scans them), only more slowly; the
/// viewer and the API say so when there are many.
struct LogIndexLag: Equatable, Sendable {
    var unindexedLines = 0
    /// When the oldest unindexed line arrived; nil when none is waiting.
    var waitingSince: Date?

    /// From this many unindexed lines on, the viewer says searches are slower.
    static let noticeableLines = 20_000

    var isNoticeable: Bool { unindexedLines >= Self.noticeableLines }

    static func read(in connection: Connection) throws -> LogIndexLag {
        try read(after: LogQueries.indexedThrough(in: connection), in: connection)
    }

    /// The lag behind `mark`, the indexer's mark as the caller's snapshot read it.
    static func read(after mark: RecordID<DeviceLogRecord>, in connection: Connection) throws -> LogIndexLag {
        guard let row = try connection.row(LogQueries.unindexed(after: mark)) else { return LogIndexLag() }
        let waitingSince = try row.get("waitingSince", as: Date?.self)
        return LogIndexLag(unindexedLines: waitingSince == nil ? 0 : max(0, try row.get("lines", as: Int.self)), waitingSince: waitingSince)
    }

    /// The viewer's sentence when the lag is noticeable.
    var notice: String? {
        guard isNoticeable else { return nil }
        return "Indexing — \(unindexedLines.formatted()) lines still to index; results include them but are slower."
    }
}
