/// What a statement does to the session's transaction state and to rows.
enum StatementKind {
    case begin, end, write, other

    init(_ text: String) {
        let start = text.drop { $0.isWhitespace }.prefix(9).uppercased()
        if start.hasPrefix("BEGIN") || start.hasPrefix("START") {
            self = .begin
        } else if start.hasPrefix("COMMIT") || start.hasPrefix("END") || (start.hasPrefix("ROLLBACK") && !text.uppercased().contains("ROLLBACK TO")) {
            self = .end
        } else if start.hasPrefix("INSERT") || start.hasPrefix("UPDATE") || start.hasPrefix("DELETE") || start.hasPrefix("WITH")
            || start.hasPrefix("TRUNCATE") || start.hasPrefix("ALTER") || start.hasPrefix("DROP") {
            self = .write
        } else {
            self = .other
        }
    }
}
