import Foundation

/// Reads SQL text as PostgreSQL does, telling code from what only looks like code: string
/// literals ('…', E'…'), quoted names ("…"), dollar-quoted bodies ($$…$$, $tag$…$tag$) and
/// comments (-- and /* */). Our SQL is written for SQLite's `?` placeholders and scripts of
/// several statements; PostgreSQL numbers its placeholders and its extended protocol (the one
/// that binds values) takes one statement at a time.
enum SQLTextScanner {
    /// The text as PostgreSQL should read it: each `?` outside literals and comments numbered
    /// in order (`$1`, `$2`, …), quoted names in lower case, and `LIKE` as `ILIKE`. SQLite
    /// compares names without regard to case and PostgreSQL folds unquoted ones to lower case,
    /// so `deviceID` and `"deviceID"` (as the ORM writes it) must both mean the column
    /// `deviceid`; and SQLite's LIKE ignores case, which on PostgreSQL is ILIKE's meaning.
    static func postgresText(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        var number = 0
        scan(text) { piece, isCode in
            if !isCode && piece.first == "\"" {
                result += piece.lowercased()
                return
            }
            guard isCode else {
                result += piece
                return
            }
            let piece = likeAsILike(piece)
            guard piece.contains("?") else {
                result += piece
                return
            }
            for character in piece {
                if character == "?" {
                    number += 1
                    result += "$\(number)"
                } else {
                    result.append(character)
                }
            }
        }
        return result
    }

    /// `code` with each word LIKE (any case) as ILIKE.
    private static func likeAsILike(_ code: Substring) -> Substring {
        guard code.range(of: "like", options: .caseInsensitive) != nil else { return code }
        var result = ""
        var word = ""
        func flush() {
            result += word.uppercased() == "LIKE" ? "ILIKE" : word
            word = ""
        }
        for character in code {
            if character.isLetter || character.isNumber || character == "_" {
                word.append(character)
            } else {
                flush()
                result.append(character)
            }
        }
        flush()
        return Substring(result)
    }

    /// The statements of a script, split at each `;` outside literals and comments; blank
    /// statements dropped.
    static func statements(in script: String) -> [String] {
        var statements: [String] = []
        var current = ""
        scan(script) { piece, isCode in
            guard isCode, piece.contains(";") else {
                current += piece
                return
            }
            for character in piece {
                if character == ";" {
                    statements.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
        }
        statements.append(current)
        return statements.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }

    /// Calls `visit` with consecutive pieces of `text`, each either code or one literal,
    /// quoted name or comment (passed whole, delimiters included).
    private static func scan(_ text: String, _ visit: (Substring, _ isCode: Bool) -> Void) {
        var index = text.startIndex
        var codeStart = index
        func flushCode(upTo end: String.Index) {
            if codeStart < end { visit(text[codeStart..<end], true) }
        }
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            let following: Character? = next < text.endIndex ? text[next] : nil
            var end: String.Index?
            switch character {
            case "'", "\"":
                end = closing(character, in: text, from: next)
            case "-" where following == "-":
                end = text[next...].firstIndex(of: "\n").map { text.index(after: $0) } ?? text.endIndex
            case "/" where following == "*":
                end = text.range(of: "*/", range: next..<text.endIndex)?.upperBound ?? text.endIndex
            case "$":
                end = dollarQuoteEnd(in: text, from: index)
            default:
                break
            }
            if let end {
                flushCode(upTo: index)
                visit(text[index..<end], false)
                index = end
                codeStart = end
            } else {
                index = next
            }
        }
        flushCode(upTo: text.endIndex)
    }

    /// Past the quote that closes one opened just before `start`; a doubled quote is part of
    /// the text. Unclosed, the rest of the text.
    private static func closing(_ quote: Character, in text: String, from start: String.Index) -> String.Index {
        var index = start
        while index < text.endIndex {
            let next = text.index(after: index)
            if text[index] == quote {
                if next < text.endIndex && text[next] == quote {
                    index = text.index(after: next)
                    continue
                }
                return next
            }
            index = next
        }
        return text.endIndex
    }

    /// Past the end of a dollar-quoted body starting at `start` (`$tag$ … $tag$`), or nil when
    /// the `$` starts no such body (`$1`, a name such as `a$b`).
    private static func dollarQuoteEnd(in text: String, from start: String.Index) -> String.Index? {
        if start > text.startIndex {
            let before = text[text.index(before: start)]
            if before.isLetter || before.isNumber || before == "_" { return nil }
        }
        var index = text.index(after: start)
        while index < text.endIndex, text[index].isLetter || text[index] == "_" {
            index = text.index(after: index)
        }
        guard index < text.endIndex, text[index] == "$" else { return nil }
        let tag = text[start...index]
        let bodyStart = text.index(after: index)
        return text.range(of: tag, range: bodyStart..<text.endIndex)?.upperBound ?? text.endIndex
    }
}
