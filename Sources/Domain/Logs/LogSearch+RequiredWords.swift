extension LogSearch.Matcher {
    /// Words one of which every ASCII-only message that matches contains (see
    /// `requiredASCIIWords`); nil would mean "no such words", which cannot happen today:
    /// every phrase can be said as a word or as "no ASCII message matches".
    static func requiredWords(_ expression: Expression, terms: [Term], phrases: [[Int]]) -> [String]? {
        switch expression {
        case .phrase(let number):
            // An ASCII message's tokens are its own letters and digits in lower case, so each
            // of the phrase's tokens (a prefix too) is in it; the longest is the rarest. A
            // token folded beyond ASCII, or a phrase of no tokens, matches no ASCII message.
            let tokens = phrases[number].map { terms[$0].bytes }
            guard !tokens.isEmpty, tokens.allSatisfy({ $0.allSatisfy { $0 < 0x80 } }) else { return [] }
            let longest = tokens.max { $0.count < $1.count }!
            return [String(decoding: longest, as: UTF8.self)]
        case .and(let l, let r):
            // Either side's words are necessary; keep the more telling.
            let left = requiredWords(l, terms: terms, phrases: phrases)
            let right = requiredWords(r, terms: terms, phrases: phrases)
            guard let left else { return right }
            guard let right else { return left }
            return isMoreTelling(left, than: right) ? left : right
        case .or(let l, let r):
            guard let left = requiredWords(l, terms: terms, phrases: phrases),
                  let right = requiredWords(r, terms: terms, phrases: phrases) else { return nil }
            return withoutRedundantWords(left + right)
        case .not(let l, _):
            return requiredWords(l, terms: terms, phrases: phrases)
        }
    }

    /// Fewer messages pass: no words at all beats any, then a longer shortest word, then fewer words.
    private static func isMoreTelling(_ a: [String], than b: [String]) -> Bool {
        if a.isEmpty || b.isEmpty { return a.isEmpty }
        let shortestA = a.map(\.utf8.count).min()!, shortestB = b.map(\.utf8.count).min()!
        return shortestA != shortestB ? shortestA > shortestB : a.count <= b.count
    }

    /// A word that contains another of the list adds nothing to "contains one of them".
    private static func withoutRedundantWords(_ words: [String]) -> [String] {
        var kept: [String] = []
        for (index, word) in words.enumerated() {
            let redundant = words.enumerated().contains { other, shorter in
                other != index && word.contains(shorter) && (shorter != word || other < index)
            }
            if !redundant { kept.append(word) }
        }
        return kept
    }
}
