extension LogSearch.Matcher {
    /// The message with U+0001 before and U+0002 after each phrase found in it, as FTS5's
    /// `highlight(device_log_search, 0, char(1), char(2))` marks a line of a large index:
    /// - a phrase instance runs from the start of its first token to the end of its last;
    ///   instances that share a token are one mark, instances side by side are two;
    /// - only phrases that take part in the match are marked: in `a NOT b` never `b`, and in
    ///   `(a NOT b) OR c` the `a` of a line that also holds `b` is not marked (FTS5 reads a
    ///   phrase's positions only where its part of the query stands on the line);
    /// - a message the search does not match comes back unmarked.
    ///
    /// FTS5 itself departs from this in two cases that hang on other lines of the index, which
    /// no judge of one line can see (LogSearchParityTests meets both): a NOT whose left side
    /// matches no line of the index never looks at its right side, which stays marked on the
    /// first line holding it; and where an AND that is not the whole search meets a line with
    /// the words of one of its phrases out of order, FTS5 clears the positions of all the AND's
    /// phrases, those it has already read on a later line too, which that line then lacks.
    public func highlighted(_ message: String) -> String {
        var message = message
        return message.withUTF8 { bytes in
            var tokens: [(start: Int, end: Int)] = []
            var instances = [[Int]](repeating: [], count: phrases.count)
            scan(bytes) { start, end in
                tokens.append((start, end))
            } onInstance: { phrase, lastToken in
                instances[phrase].append(lastToken)
                return true
            }
            let marked = expression.markedPhrases { !instances[$0].isEmpty }.phrases
            var spans = marked.flatMap { phrase in
                instances[phrase].map { (first: $0 - phrases[phrase].count + 1, last: $0) }
            }
            guard !spans.isEmpty else { return String(decoding: bytes, as: UTF8.self) }
            spans.sort { $0.first < $1.first }
            var merged = [spans[0]]
            for span in spans.dropFirst() {
                if span.first <= merged[merged.count - 1].last {
                    merged[merged.count - 1].last = max(merged[merged.count - 1].last, span.last)
                } else {
                    merged.append(span)
                }
            }
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 2 * merged.count)
            var copied = 0
            for span in merged {
                let start = tokens[span.first].start, end = tokens[span.last].end
                output.append(contentsOf: bytes[copied..<start])
                output.append(0x01)
                output.append(contentsOf: bytes[start..<end])
                output.append(0x02)
                copied = end
            }
            output.append(contentsOf: bytes[copied...])
            return String(decoding: output, as: UTF8.self)
        }
    }
}

extension LogSearch.Matcher.Expression {
    /// Whether the line matches, and the phrases FTS5 reports instances of for it: those of
    /// the parts that match, where a NOT's right side never counts (FTS5 reads a phrase's
    /// positions only where its part of the query stands on the line).
    func markedPhrases(_ found: (Int) -> Bool) -> (matched: Bool, phrases: [Int]) {
        switch self {
        case .phrase(let number):
            return found(number) ? (true, [number]) : (false, [])
        case .and(let l, let r):
            let left = l.markedPhrases(found), right = r.markedPhrases(found)
            return left.matched && right.matched ? (true, left.phrases + right.phrases) : (false, [])
        case .or(let l, let r):
            let left = l.markedPhrases(found), right = r.markedPhrases(found)
            return (left.matched || right.matched, left.phrases + right.phrases)
        case .not(let l, let r):
            let left = l.markedPhrases(found)
            return left.matched && !r.isMatched(found) ? left : (false, [])
        }
    }
}
