import Foundation

/// A full-text search as a helpdesk user types it — words, "quoted phrases", a `*` at the end
/// of a word for a prefix, AND, OR, NOT and parentheses — turned into an SQLite FTS5 expression
/// that can only mean what it says. Every word and phrase reaches FTS5 as a quoted string, so
/// nothing the user types is FTS5 syntax of its own (`NEAR`, `column:`, `^`, `+` are words),
/// and a search that cannot be understood gets a sentence saying why instead of a query.
public struct LogSearch: Equatable, Sendable {
    public static let maximumLength = 300
    public static let maximumTerms = 16

    /// The FTS5 MATCH expression.
    public let expression: String
    /// The search as FTS5 reads `expression`: terms with nothing to match already left out.
    let tree: Node

    public struct Problem: Error, Equatable, Sendable {
        public let message: String
    }

    public init(_ text: String) throws(Problem) {
        guard PlainText.length(text) <= Self.maximumLength else { throw Problem(message: "Keep a search to \(Self.maximumLength) characters.") }
        // SQLite would read a NUL as the end of the text; no search needs any control character.
        if let problem = PlainText.problem(text) { throw Problem(message: problem) }
        var parser = Parser(tokens: try Self.tokens(of: text))
        guard !parser.tokens.isEmpty else { throw Problem(message: "Type a word to search for.") }
        let parsed = try parser.parseAll()
        guard let tree = parsed.pruned() else {
            throw Problem(message: "Search for at least one word or number; punctuation alone matches nothing.")
        }
        guard parsed.termCount <= Self.maximumTerms else { throw Problem(message: "Use at most \(Self.maximumTerms) words and phrases.") }
        self.tree = tree
        expression = tree.rendered()
    }

    // MARK: tokens

    enum Token: Equatable {
        /// A word or a quoted phrase; `prefix` when it ended with `*`.
        case term(String, prefix: Bool)
        case and, or, not, open, close
    }

    static func tokens(of text: String) throws(Problem) -> [Token] {
        var tokens: [Token] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character.isWhitespace {
                index = text.index(after: index)
            } else if character == "(" || character == ")" {
                tokens.append(character == "(" ? .open : .close)
                index = text.index(after: index)
            } else if character == "\"" {
                let start = text.index(after: index)
                guard let end = text[start...].firstIndex(of: "\"") else {
                    throw Problem(message: "A quote is not closed: add the closing \" or remove the opening one.")
                }
                index = text.index(after: end)
                let prefix = index < text.endIndex && text[index] == "*"
                if prefix { index = text.index(after: index) }
                tokens.append(.term(String(text[start..<end]), prefix: prefix))
            } else {
                let end = text[index...].firstIndex { $0.isWhitespace || $0 == "(" || $0 == ")" || $0 == "\"" } ?? text.endIndex
                let word = String(text[index..<end])
                index = end
                switch word {
                case "AND": tokens.append(.and)
                case "OR": tokens.append(.or)
                case "NOT": tokens.append(.not)
                default:
                    let stem = word.hasSuffix("*") ? String(word.dropLast()) : word
                    if stem.contains("*") || (word.hasSuffix("*") && stem.isEmpty) {
                        throw Problem(message: "Put * at the end of a word to find words starting with it, as in time*.")
                    }
                    tokens.append(.term(stem, prefix: word.hasSuffix("*")))
                }
            }
        }
        return tokens
    }

    // MARK: tree

    indirect enum Node: Equatable, Sendable {
        case term(String, prefix: Bool)
        case and(Node, Node)
        case or(Node, Node)
        case not(Node, Node)

        /// The tree without terms that have nothing to match (punctuation only); nil when
        /// nothing is left. A NOT whose right side is gone keeps its left side.
        func pruned() -> Node? {
            switch self {
            case .term(let text, _):
                return text.contains(where: { $0.isLetter || $0.isNumber }) ? self : nil
            case .and(let left, let right): return Self.join(left, right, Node.and)
            case .or(let left, let right): return Self.join(left, right, Node.or)
            case .not(let left, let right):
                guard let kept = left.pruned() else { return nil }
                return right.pruned().map { .not(kept, $0) } ?? kept
            }
        }

        private static func join(_ left: Node, _ right: Node, _ both: (Node, Node) -> Node) -> Node? {
            switch (left.pruned(), right.pruned()) {
            case let (l?, r?): both(l, r)
            case let (l?, nil): l
            case let (nil, r?): r
            case (nil, nil): nil
            }
        }

        /// FTS5 text: every term a quoted string, every operator in brackets.
        func rendered() -> String {
            switch self {
            case .term(let text, let prefix): FTS5Text.quoted(text) + (prefix ? "*" : "")
            case .and(let left, let right): "(\(left.rendered()) AND \(right.rendered()))"
            case .or(let left, let right): "(\(left.rendered()) OR \(right.rendered()))"
            case .not(let left, let right): "(\(left.rendered()) NOT \(right.rendered()))"
            }
        }

        var termCount: Int {
            switch self {
            case .term: 1
            case .and(let l, let r), .or(let l, let r), .not(let l, let r): l.termCount + r.termCount
            }
        }
    }

    /// FTS5's precedence: NOT binds tighter than AND, AND tighter than OR; words side by side
    /// mean AND.
    struct Parser {
        let tokens: [Token]
        var position = 0

        mutating func parseAll() throws(Problem) -> Node {
            let node = try parseOr()
            if position < tokens.count {
                throw Problem(message: tokens[position] == .close
                    ? "A ) has no ( before it." : "The search could not be read after \(describe(tokens[position])).")
            }
            return node
        }

        mutating func parseOr() throws(Problem) -> Node {
            var node = try parseAnd(after: nil)
            while peek == .or {
                position += 1
                node = .or(node, try parseAnd(after: "OR"))
            }
            return node
        }

        mutating func parseAnd(after operatorWord: String?) throws(Problem) -> Node {
            var node = try parseNot(after: operatorWord)
            while let next = peek, next != .or, next != .close {
                if next == .and {
                    position += 1
                    node = .and(node, try parseNot(after: "AND"))
                } else {
                    node = .and(node, try parseNot(after: nil))
                }
            }
            return node
        }

        mutating func parseNot(after operatorWord: String?) throws(Problem) -> Node {
            var node = try parseAtom(after: operatorWord)
            while peek == .not {
                position += 1
                node = .not(node, try parseAtom(after: "NOT"))
            }
            return node
        }

        mutating func parseAtom(after operatorWord: String?) throws(Problem) -> Node {
            guard let token = peek else {
                throw Problem(message: operatorWord.map { "\($0) needs a word after it." } ?? "Type a word to search for.")
            }
            switch token {
            case .term(let text, let prefix):
                position += 1
                return .term(text, prefix: prefix)
            case .open:
                position += 1
                if peek == .close { throw Problem(message: "The brackets () have nothing inside.") }
                let inner = try parseOr()
                guard peek == .close else { throw Problem(message: "A ( is not closed: add the ) or remove the (.") }
                position += 1
                return inner
            case .not where operatorWord == nil:
                throw Problem(message: "NOT needs a word before it, as in crash NOT timeout.")
            case .and, .or, .not:
                throw Problem(message: operatorWord.map { "\($0) is followed by \(describe(token)); put a word between them." }
                    ?? "\(describe(token)) needs a word before it.")
            case .close:
                throw Problem(message: operatorWord.map { "\($0) needs a word after it." } ?? "A ) has no ( before it.")
            }
        }

        var peek: Token? { position < tokens.count ? tokens[position] : nil }

        func describe(_ token: Token) -> String {
            switch token {
            case .term(let text, _): "“\(text)”"
            case .and: "AND"
            case .or: "OR"
            case .not: "NOT"
            case .open: "("
            case .close: ")"
            }
        }
    }
}
