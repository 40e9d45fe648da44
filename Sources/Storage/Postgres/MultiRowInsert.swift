import Foundation

/// `INSERT INTO t (a, b) VALUES (?, ?)` written for many rows at once:
/// `… VALUES (?, ?), (?, ?), …`, so a bulk insert on PostgreSQL is one round trip per group.
struct MultiRowInsert {
    /// Rows per statement: a 500-line upload of 13 columns is 6,500 parameters, well inside
    /// PostgreSQL's 65,535.
    static let rowsPerStatement = 500

    private let head: String
    private let row: String

    /// nil unless `text` is an INSERT ending in one VALUES tuple.
    init?(_ text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.uppercased().hasPrefix("INSERT"),
              let values = trimmed.range(of: "VALUES", options: [.caseInsensitive, .backwards]) else { return nil }
        let tuple = trimmed[values.upperBound...].trimmingCharacters(in: .whitespacesAndNewlines)
        guard tuple.hasPrefix("("), tuple.hasSuffix(")"), !tuple.contains(";") else { return nil }
        // One tuple: its parentheses close only at the end.
        var depth = 0
        for (index, character) in tuple.enumerated() {
            if character == "(" { depth += 1 }
            if character == ")" { depth -= 1 }
            if depth == 0 && index < tuple.count - 1 { return nil }
        }
        head = String(trimmed[..<values.upperBound])
        row = tuple
    }

    func text(rows: Int) -> String {
        head + " " + Array(repeating: row, count: rows).joined(separator: ", ")
    }
}
