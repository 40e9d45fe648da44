import Domain
import Foundation
import Testing

/// The console checks a key's value against its pattern with BoundedPattern; devices check the same
/// pattern with NSRegularExpression. So every answer here is also asked of NSRegularExpression, and
/// a construct whose meaning the two could disagree on is refused with a message that names it.
@Suite struct BoundedPatternTests {
    /// `^(?:pattern)$` as NSRegularExpression answers it.
    func foundationMatches(_ pattern: String, _ text: String) throws -> Bool {
        let regex = try NSRegularExpression(pattern: "^(?:\(pattern))$")
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// Checks both answers for each text, and that they agree.
    func expectAnswers(_ pattern: String, matching: [String], notMatching: [String]) throws {
        let compiled = try BoundedPattern(pattern)
        for (texts, expected) in [(matching, true), (notMatching, false)] {
            for text in texts {
                #expect(compiled.matchesWhole(text) == expected, "\(pattern) on \(text.debugDescription)")
                #expect(try foundationMatches(pattern, text) == expected, "NSRegularExpression: \(pattern) on \(text.debugDescription)")
            }
        }
    }

    func problem(_ pattern: String) -> String? {
        do {
            _ = try BoundedPattern(pattern)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func realisticPatternsAnswerAsNSRegularExpressionDoes() throws {
        try expectAnswers("https://.+", matching: ["https://example.com", "https://a"],
                          notMatching: ["http://example.com", "https://", "xhttps://a", "https://a\nb"])
        try expectAnswers(#"[A-Z]{2}-\d{4}"#, matching: ["AB-1234", "ZZ-0000"],
                          notMatching: ["AB-123", "ab-1234", "ABC-1234", "AB1234", "AB-12345", ""])
        try expectAnswers("(red|green|blue)", matching: ["red", "green", "blue"], notMatching: ["", "redgreen", "Red", "gree"])
        try expectAnswers("a(b|c)*d", matching: ["ad", "abd", "acbcbd"], notMatching: ["a", "abed", "abcdd", "d"])
        try expectAnswers(#"\w+@\w+\.com"#, matching: ["jo@example.com", "a_1@b.com"],
                          notMatching: ["jo@example.org", "@b.com", "jo@examplecom", "jo@ex-ample.com"])
        try expectAnswers("colou?r", matching: ["color", "colour"], notMatching: ["colouur", "colr"])
        try expectAnswers("x{2,3}", matching: ["xx", "xxx"], notMatching: ["x", "xxxx", ""])
        try expectAnswers("(ab){2,}", matching: ["abab", "ababab"], notMatching: ["ab", "ababa"])
        try expectAnswers(#"\d+\.\d\d"#, matching: ["12.50", "0.99"], notMatching: ["12.5", "12,50", ".99"])
        try expectAnswers("(a|ab)(c|bcd)(d*)", matching: ["abcd", "acd", "abcdd"], notMatching: ["ab", "abc d"])
    }

    @Test func classesAndEscapesAnswerAsNSRegularExpressionDoes() throws {
        try expectAnswers("[^a-c]+", matching: ["xyz", "d", "-"], notMatching: ["abc", "xay", ""])
        try expectAnswers("[a-cx-z0-9_-]+", matching: ["a-b_9", "zz"], notMatching: ["d", "A", "a b"])
        try expectAnswers(#"[\d_-]{3}"#, matching: ["1_-", "---"], notMatching: ["a__", "12"])
        try expectAnswers(#"[^\D\s]"#, matching: ["5"], notMatching: ["a", " "])
        try expectAnswers("[]a]+", matching: ["]a]", "a"], notMatching: ["[", "b"])
        try expectAnswers("[a-z-0]", matching: ["-", "q", "0"], notMatching: ["1"])
        try expectAnswers(#"\/path\/\-\\\.\*"#, matching: [#"/path/-\.*"#], notMatching: ["/path/-", #"/path/-\x*"#])
        try expectAnswers(#"\t\u00e9\x41\x{1F600}"#, matching: ["\téA😀"], notMatching: ["\teA😀", " éA😀"])
        try expectAnswers(#"\D\W\S"#, matching: ["a-b", "x!y"], notMatching: ["1-b", "aab", "a- "])
    }

    @Test func shorthandsAndTheDotReadUnicodeAsICUDoes() throws {
        try expectAnswers(#"\d"#, matching: ["7", "٣"], notMatching: ["a", "½"])
        try expectAnswers(#"\w"#, matching: ["é", "\u{301}", "_", "\u{200C}"], notMatching: ["-", " "])
        try expectAnswers(#"\s"#, matching: [" ", "\t", "\u{A0}"], notMatching: ["a", "_"])
        try expectAnswers(".", matching: ["a", "😀", "é"], notMatching: ["", "ab", "\n", "\r", "\u{2028}"])
        try expectAnswers("é", matching: ["\u{E9}"], notMatching: ["e\u{301}"])
    }

    @Test func anchorsAndEmptyBranchesAnswerAsNSRegularExpressionDoes() throws {
        try expectAnswers("^abc$", matching: ["abc"], notMatching: ["ab", "xabc"])
        try expectAnswers("a^b", matching: [], notMatching: ["ab", "a^b"])
        try expectAnswers("a$b", matching: [], notMatching: ["ab", "a$b"])
        try expectAnswers("a|", matching: ["a", ""], notMatching: ["b"])
        try expectAnswers("(a*)*b", matching: ["b", "aab"], notMatching: ["aa"])
        try expectAnswers("(|a){3}", matching: ["", "a", "aaa"], notMatching: ["aaaa"])
        try expectAnswers("a{0}b", matching: ["b"], notMatching: ["ab"])
        try expectAnswers("(?:ab)+?c", matching: ["abc", "ababc"], notMatching: ["c", "abac"])
    }

    @Test func anEmptyPatternMatchesOnlyTheEmptyText() throws {
        let empty = try BoundedPattern("")
        #expect(empty.matchesWhole(""))
        #expect(!empty.matchesWhole("a"))
    }

    @Test func dollarMatchesOnlyAtTheVeryEnd() throws {
        // NSRegularExpression's $ also matches before a final line break; a value that ends in
        // one does not match here.
        #expect(try !BoundedPattern("abc").matchesWhole("abc\n"))
        #expect(try !BoundedPattern("abc$").matchesWhole("abc\r\n"))
        #expect(try foundationMatches("abc", "abc\n"))
    }

    @Test func nestedQuantifiersAnswerWithoutBacktracking() throws {
        let pattern = try BoundedPattern("(a+)+$")
        #expect(!pattern.matchesWhole(String(repeating: "a", count: 24) + "!"))
        #expect(!pattern.matchesWhole(String(repeating: "a", count: 100_000) + "!"))
        #expect(pattern.matchesWhole(String(repeating: "a", count: 100_000)))
        #expect(try !BoundedPattern("(x+x+)+y").matchesWhole(String(repeating: "x", count: 5_000)))
    }

    @Test func constructsTheConsoleDoesNotCheckAreRefusedByName() {
        let refused: [(pattern: String, named: String)] = [
            (#"(a)\1"#, #"back-reference (\1)"#), (#"\k<n>"#, #"back-reference (\k<name>)"#),
            ("(?=a)a", "look-ahead"), ("(?!b)a", "negative look-ahead"),
            ("(?<=a)b", "look-behind"), ("(?<!a)b", "negative look-behind"),
            ("(?<name>a)", "named group"), ("(?>a)", "atomic group"), ("(?#note)a", "comment"),
            ("(?i)abc", "inline flag"), ("(?i:a)", "inline flag"), ("(?-x)a", "inline flag"),
            (#"\bword\b"#, "word boundary"), (#"\p{L}+"#, "Unicode property"), (#"\P{L}"#, "Unicode property"),
            ("[[:alpha:]]", "POSIX class"), ("[:digit:]", "POSIX class"),
            ("[a-z[0-9]]", "class inside a class"), ("[a-z&&[^b]]", "set operation"), ("[a--b]", "set operation"),
            ("a*+", "possessive quantifier (*+)"), ("a{2}+", "possessive quantifier ({2}+)"), ("a?+", "possessive"),
            (#"\Qa.b\E"#, "quoting"), (#"\Aabc\z"#, "anchor"), (#"\0101"#, "octal escape"), (#"\h"#, #"escape \h"#),
            (#"\uD83D\uDE00"#, "surrogate"), ("(a?)*?b", "lazy *?"),
        ]
        for (pattern, named) in refused {
            let message = problem(pattern)
            #expect(message?.contains(named) == true, "\(pattern): \(message ?? "accepted")")
        }
    }

    @Test func malformedPatternsSayWhatIsWrong() {
        let malformed: [(pattern: String, saying: String)] = [
            ("(abc", "group ( is not closed"), ("abc)", ") closes a group that was never opened"),
            ("(?:a|b", "group ( is not closed"), ("[abc", "class [ is not closed"), ("[]", "class [ is not closed"),
            ("*a", "* has nothing before it to repeat"), ("a|+b", "+ has nothing before it to repeat"),
            ("{2}", "{2} has nothing before it to repeat"), ("a**", "another quantifier follows *"),
            ("a{2}{3}", "another quantifier follows {2}"), ("a{5,2}", "in {5,2} the first count is larger"),
            ("a{,3}", "does not begin a count"),
            ("a{", "does not begin a count"), ("a}", "a } closes no count"), ("[z-a]", "range z-a in a class runs backwards"),
            (#"[a-\d]"#, "range in a class must end in a character"), (#"a\"#, #"lone \"#),
            (#"\u12"#, "four hex digits"), (#"\x{110000}"#, "beyond the last Unicode code point"),
        ]
        for (pattern, saying) in malformed {
            let message = problem(pattern)
            #expect(message?.contains(saying) == true, "\(pattern): \(message ?? "accepted")")
            #expect(message?.hasPrefix("This pattern is not a valid regular expression: ") == true)
            #expect((try? NSRegularExpression(pattern: pattern)) == nil, "NSRegularExpression refuses \(pattern) too")
        }
    }

    @Test func countsAndPatternsPastTheLimitsAreRefused() {
        #expect(problem("a{1001}")?.contains("more than 1000 times") == true)
        #expect(problem("a{2,5000}")?.contains("more than 1000 times") == true)
        #expect(problem("a{99999999999999999999}")?.contains("more than 1000 times") == true)
        #expect(problem("(a{999}){999}")?.contains("too large to check") == true)
        #expect(problem("a{1000}{1000}") != nil)
        #expect(problem(String(repeating: "[a-z0-9_.]", count: 300))?.contains("too large to check") == true)
        #expect(problem("((((){1000}){1000}){1000}){1000}") == nil, "repeating nothing costs nothing")
        #expect(problem("(((|){1000}){1000}){1000}")?.contains("too large to check") == true)
        #expect(problem("a{1000}") == nil)
        #expect(problem("x{2,500}") == nil)
        let deep = BoundedPattern.maximumNesting + 1
        #expect(problem(String(repeating: "(", count: deep) + String(repeating: ")", count: deep))?.contains("deep") == true)
    }

    @Test func lazyQuantifiersAnswerAsGreedyOnes() throws {
        try expectAnswers("a*?b", matching: ["b", "aab"], notMatching: ["a"])
        try expectAnswers("(a?){1,}?b|", matching: ["", "ab"], notMatching: ["a"])
        try expectAnswers("a{2,3}?", matching: ["aa", "aaa"], notMatching: ["a"])
    }
}
