import Synchronization

/// Reads that do not depend on each other, for `Connection.rows(together:)`: each is answered
/// through the ticket its `add` returned, so a page cannot decode one read from another's rows
/// whatever order it added them in, or whichever it left out.
public struct ReadsTogether: Sendable {
    /// Where one read's rows are among the answers.
    public struct Ticket: Sendable {
        fileprivate let index: Int
        fileprivate let batch: UInt64
    }

    /// Tells one batch's tickets from another's.
    private static let batches = Atomic<UInt64>(0)
    fileprivate let batch = ReadsTogether.batches.add(1, ordering: .relaxed).newValue
    public private(set) var sqls: [SQL] = []

    public init() {}

    public mutating func add(_ sql: SQL) -> Ticket {
        sqls.append(sql)
        return Ticket(index: sqls.count - 1, batch: batch)
    }

    /// Each read's rows, by its ticket.
    public struct Answers: Sendable {
        fileprivate let batch: UInt64
        fileprivate let rows: [[Row]]

        public subscript(ticket: Ticket) -> [Row] {
            get throws {
                guard ticket.batch == batch, rows.indices.contains(ticket.index) else {
                    throw StorageError.invalidQuery("a read's ticket from another batch of reads")
                }
                return rows[ticket.index]
            }
        }
    }
}

extension Connection {
    /// `reads` sent together (`rows(together:)`), answered by ticket.
    public func rows(together reads: ReadsTogether) throws -> ReadsTogether.Answers {
        ReadsTogether.Answers(batch: reads.batch, rows: try rows(together: reads.sqls))
    }
}
