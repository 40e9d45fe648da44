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
    /// numbered from 1 as FTS5 numbers them from 0. Written as bytes: on PostgreSQL this runs
    /// for every uploaded line, and built a character at a time it was the decoding threads'
    /// largest cost.
    public static func tsvector(of message: String) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(message.utf8.count * 2 + 16)
        var position = 0
        var bytes = Array(message.utf8)
        bytes.withUnsafeMutableBufferPointer { buffer in
            let input = UnsafeBufferPointer(buffer)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Unicode61.foldCapacity(input.count)) { scratch in
                Unicode61.shared.forEachToken(in: input, scratch: scratch.baseAddress!) { _, _, folded in
                    position += 1
                    guard !folded.isEmpty, folded.count <= longestLexeme else { return true }
                    if !text.isEmpty { text.append(UInt8(ascii: " ")) }
                    appendQuoted(folded, to: &text)
                    text.append(UInt8(ascii: ":"))
                    appendDecimal(min(position, lastPosition), to: &text)
                    return true
                }
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// A lexeme in quotes, its quotes and backslashes escaped as tsvector text needs.
    static func quoted(_ token: some Collection<UInt8>) -> String {
        var text: [UInt8] = []
        appendQuoted(token, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Neither byte occurs inside a longer UTF-8 sequence, so escaping bytes escapes characters.
    private static func appendQuoted(_ token: some Collection<UInt8>, to text: inout [UInt8]) {
        text.append(UInt8(ascii: "'"))
        for byte in token {
            if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\\") { text.append(UInt8(ascii: "\\")) }
            text.append(byte)
        }
        text.append(UInt8(ascii: "'"))
    }

    /// `number` (1...16,383) in decimal digits.
    private static func appendDecimal(_ number: Int, to text: inout [UInt8]) {
        if number >= 10 { appendDecimal(number / 10, to: &text) }
        text.append(UInt8(ascii: "0") + UInt8(number % 10))
    }
}
