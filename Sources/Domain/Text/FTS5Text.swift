import Foundation

/// Text handed to SQLite's full-text search as one quoted string, its quotes doubled, so that
/// nothing a person typed is FTS5 syntax of its own (log search terms, device search).
enum FTS5Text {
    static func quoted(_ text: String) -> String {
        "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
