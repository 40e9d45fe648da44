extension LogSearch {
    /// The search judged in Swift, line by line, exactly as SQLite's FTS5 judges `expression`
    /// against the log index (`unicode61 remove_diacritics 2`): for lines the index has not
    /// reached yet, so that a search finds them, and marks them, as it will once they are indexed.
    ///
    /// Each term is a phrase of the tokens its text splits into (`E_TIMEOUT` is `e` then
    /// `timeout`, consecutive in the line); a trailing `*` makes the last of them a prefix;
    /// AND, OR and NOT (`a NOT b`: a and not b) combine them as the search says. A term whose
    /// text has no token at all matches no line, as in FTS5.
    ///
    /// Built once per search and safe to call from several threads at once; `matches` keeps its
    /// working memory on the stack for lines of ordinary length.
    ///
    /// Speed of `matches` over generated lines of about 100 ASCII bytes, on this shared 2-core
    /// machine (searches `timeout`, `"E_TIME"*`, `sync NOT server`, `"connection reset"`,
    /// `retry OR upload failed`): 0.19–0.26 million lines/s in a debug build
    /// (LogSearchMatcherSpeedTests prints it), 3–4.8 million lines/s (0.2–0.35 µs a line)
    /// compiled with -O, most of it splitting bytes into tokens. `matches(utf8:)` spares making
    /// a String of each line.
    public struct Matcher: Sendable {
        /// A distinct query token: folded bytes, and whether a line's token need only start with them.
        struct Term: Equatable {
            let bytes: [UInt8]
            let prefix: Bool
        }

        /// The search over phrase numbers.
        indirect enum Expression: Sendable {
            case phrase(Int)
            case and(Expression, Expression)
            case or(Expression, Expression)
            case not(Expression, Expression)
        }

        let terms: [Term]
        /// Term numbers of each phrase, in order; empty for a phrase that matches nothing.
        let phrases: [[Int]]
        let expression: Expression
        /// Without NOT, a line that matches once some phrases are found matches whatever follows.
        let stopsAtFirstMatch: Bool
        /// Where each phrase's state (one bit per phrase token: "the tokens so far match the
        /// phrase up to here") starts in the scan's word buffer, and how many words it takes.
        let stateOffsets: [Int]
        let stateWordCount: Int
        /// Bytes that can start a term: a token starting otherwise is no term.
        let firstBytes: [Bool]

        /// A necessary condition, cheap to test in SQL before calling `matches`: for every
        /// message made of ASCII characters only (every byte below 0x80), if `matches(message)`
        /// then the message contains at least one of these words as a substring, ignoring ASCII
        /// case. The words are lower-case ASCII letters and digits, nothing LIKE would read as a
        /// pattern. Empty when no ASCII-only message can match (every way to match needs a
        /// character beyond ASCII, such as `ж`). It says nothing about other messages: send
        /// every message with a byte of 0x80 or more to `matches`.
        public let requiredASCIIWords: [String]

        init(_ tree: Node, tokenizer: Unicode61 = .shared) {
            var terms: [Term] = []
            var phrases: [[Int]] = []
            func build(_ node: Node) -> Expression {
                switch node {
                case .term(let text, let prefix):
                    let tokens = tokenizer.tokens(of: text)
                    let phrase = tokens.enumerated().map { position, bytes in
                        let term = Term(bytes: bytes, prefix: prefix && position == tokens.count - 1)
                        if let known = terms.firstIndex(of: term) { return known }
                        terms.append(term)
                        return terms.count - 1
                    }
                    phrases.append(phrase)
                    return .phrase(phrases.count - 1)
                case .and(let l, let r): return .and(build(l), build(r))
                case .or(let l, let r): return .or(build(l), build(r))
                case .not(let l, let r): return .not(build(l), build(r))
                }
            }
            expression = build(tree)
            self.terms = terms
            self.phrases = phrases
            stopsAtFirstMatch = !expression.hasNot
            var offsets: [Int] = []
            var words = 0
            for phrase in phrases {
                offsets.append(words)
                words += (phrase.count + 63) / 64
            }
            stateOffsets = offsets
            stateWordCount = words
            var firstBytes = [Bool](repeating: false, count: 256)
            for term in terms { firstBytes[Int(term.bytes[0])] = true }
            self.firstBytes = firstBytes
            requiredASCIIWords = Self.requiredWords(expression, terms: terms, phrases: phrases) ?? []
        }

        /// Whether FTS5 would match a line with this message.
        public func matches(_ message: String) -> Bool {
            var message = message
            return message.withUTF8 { matches(utf8: $0) }
        }

        /// Whether FTS5 would match a line whose message is these UTF-8 bytes (as SQLite hands
        /// a column's text to a function, without making a String of it).
        public func matches(utf8 message: UnsafeBufferPointer<UInt8>) -> Bool {
            withUnsafeTemporaryAllocation(of: Bool.self, capacity: phrases.count) { found in
                found.initialize(repeating: false)
                scan(message) { _, _ in } onInstance: { phrase, _ in
                    found[phrase] = true
                    return !(stopsAtFirstMatch && expression.isMatched { found[$0] })
                }
                return expression.isMatched { found[$0] }
            }
        }

        /// Runs every phrase over the tokens of `message`: `onToken` hears each token's byte
        /// range, `onInstance` each place a phrase ends (phrase number, token number) and
        /// returns false to stop.
        @inline(__always)
        func scan(
            _ message: UnsafeBufferPointer<UInt8>,
            onToken: (_ start: Int, _ end: Int) -> Void,
            onInstance: (_ phrase: Int, _ lastToken: Int) -> Bool
        ) {
            let termCount = terms.count
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: stateWordCount) { state in
                state.initialize(repeating: 0)
                withUnsafeTemporaryAllocation(of: Bool.self, capacity: termCount) { hits in
                    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Unicode61.foldCapacity(message.count)) { scratch in
                        var tokenNumber = -1
                        var anyStateAlive = false
                        Unicode61.shared.forEachToken(in: message, scratch: scratch.baseAddress!) { start, end, token in
                            tokenNumber += 1
                            onToken(start, end)
                            var anyHit = false
                            if !token.isEmpty && firstBytes[Int(token[0])] {
                                for index in 0..<termCount {
                                    let hit = terms[index].matches(token)
                                    hits[index] = hit
                                    anyHit = anyHit || hit
                                }
                            }
                            guard anyHit else {
                                // No phrase can continue through a token that is none of its terms.
                                if anyStateAlive {
                                    state.update(repeating: 0)
                                    anyStateAlive = false
                                }
                                return true
                            }
                            anyStateAlive = false
                            for (number, phrase) in phrases.enumerated() where !phrase.isEmpty {
                                let offset = stateOffsets[number]
                                var carry: UInt64 = 1
                                var position = 0
                                while position < phrase.count {
                                    let word = offset + position / 64
                                    var mask: UInt64 = 0
                                    let limit = min(phrase.count, position + 64)
                                    for bit in position..<limit where hits[phrase[bit]] {
                                        mask |= 1 << UInt64(bit - position)
                                    }
                                    let old = state[word]
                                    state[word] = ((old << 1) | carry) & mask
                                    carry = old >> 63
                                    anyStateAlive = anyStateAlive || state[word] != 0
                                    position = limit
                                }
                                let last = phrase.count - 1
                                if state[offset + last / 64] >> UInt64(last % 64) & 1 == 1,
                                   !onInstance(number, tokenNumber) {
                                    return false
                                }
                            }
                            return true
                        }
                    }
                }
            }
        }
    }
}

extension LogSearch.Matcher.Term {
    @inline(__always)
    func matches(_ token: UnsafeBufferPointer<UInt8>) -> Bool {
        guard prefix ? token.count >= bytes.count : token.count == bytes.count else { return false }
        return bytes.withUnsafeBufferPointer { mine in
            for index in 0..<mine.count where mine[index] != token[index] { return false }
            return true
        }
    }
}

extension LogSearch.Matcher.Expression {
    /// Whether the line matches, given which phrases it contains.
    func isMatched(_ found: (Int) -> Bool) -> Bool {
        switch self {
        case .phrase(let number): found(number)
        case .and(let l, let r): l.isMatched(found) && r.isMatched(found)
        case .or(let l, let r): l.isMatched(found) || r.isMatched(found)
        case .not(let l, let r): l.isMatched(found) && !r.isMatched(found)
        }
    }

    var hasNot: Bool {
        switch self {
        case .phrase: false
        case .not: true
        case .and(let l, let r), .or(let l, let r): l.hasNot || r.hasNot
        }
    }
}

extension LogSearch {
    /// This search's line-by-line judge, for lines the full-text index has not reached.
    public func matcher() -> Matcher { Matcher(tree) }
}
