/// Log search on PostgreSQL, with the tokens SQLite's index uses: a line's words are split and
/// folded by our `Unicode61` (as FTS5's tokenizer splits them) and handed to PostgreSQL as a
/// ready `tsvector` literal; a search becomes a `tsquery` literal over the same tokens. Neither
/// goes through PostgreSQL's own parser or dictionaries, which would split `com.example.app`
/// differently and stem words: both backends find the same lines for the same search.
extension LogSearch {
    /// The search as PostgreSQL's `tsquery` text (cast with `::tsquery`): a phrase's tokens
    /// follow each other (`<->`), a prefix ends in `:*`, NOT is `& !`.
    public var tsquery: String { Self.tsquery(tree) }

    private static func tsquery(_ node: Node) -> String {
        switch node {
        case .term(let text, let prefix):
            let tokens = Unicode61.shared.tokens(of: text).filter { !$0.isEmpty }
            guard !tokens.isEmpty else { return "('x' & !'x')" }  // matches nothing, as in FTS5
            let lexemes = tokens.enumerated().map { index, token in
                LogSearchVector.quoted(token) + (prefix && index == tokens.count - 1 ? ":*" : "")
            }
            return "(" + lexemes.joined(separator: " <-> ") + ")"
        case .and(let left, let right): return "(\(tsquery(left)) & \(tsquery(right)))"
        case .or(let left, let right): return "(\(tsquery(left)) | \(tsquery(right)))"
        case .not(let left, let right): return "(\(tsquery(left)) & !\(tsquery(right)))"
        }
    }
}

/// A log line's words as PostgreSQL stores them for search.
public enum LogSearchVector {
    /// PostgreSQL keeps word positions up to this; later words share it.
    static let lastPosition = 16_383
    /// A lexeme longer than this is refused by PostgreSQL; no search could type one anyway.
    static let longestLexeme = 2_046

    /// `message` as `tsvector` text (cast with `::tsvector`): each token with its position,
    /// numbered from 1 as FTS5 numbers them from 0.
    public static func tsvector(of message: String) -> String {
        var text = ""
        text.reserveCapacity(message.utf8.count + message.utf8.count / 2)
        var position = 0
        var bytes = Array(message.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let input = UnsafeBufferPointer(buffer)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Unicode61.foldCapacity(input.count)) { scratch in
                Unicode61.shared.forEachToken(in: input, scratch: scratch.baseAddress!) { _, _, folded in
                    position += 1
                    guard !folded.isEmpty, folded.count <= longestLexeme else { return true }
                    if !text.isEmpty { text += " " }
                    text += quoted(folded)
                    text += ":\(min(position, lastPosition))"
                    return true
                }
            }
        }
        return text
    }

    /// A lexeme in quotes, its quotes and backslashes doubled or escaped as tsvector text needs.
    static func quoted(_ token: some Collection<UInt8>) -> String {
        var text = "'"
        for character in String(decoding: token, as: UTF8.self) {
            if character == "'" || character == "\\" { text.append("\\") }
            text.append(character)
        }
        return text + "'"
    }
}
