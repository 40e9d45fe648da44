@testable import Domain
import Foundation
import Testing

/// Lines the full-text index has not reached yet are judged in Swift; a search must find and
/// mark them as FTS5 will once they are indexed (LogSearchParityTests holds both side by side).
@Suite struct LogSearchMatcherTests {
    func matches(_ search: String, _ message: String) throws -> Bool {
        try LogSearch(search).matcher().matches(message)
    }

    func marked(_ search: String, _ message: String) throws -> String {
        // [ and ] stand for U+0001 and U+0002 so that expectations read.
        try LogSearch(search).matcher().highlighted(message)
            .replacingOccurrences(of: "\u{1}", with: "[").replacingOccurrences(of: "\u{2}", with: "]")
    }

    func words(_ search: String) throws -> [String] { try LogSearch(search).matcher().requiredASCIIWords }

    @Test func aWordIsAWholeTokenInAnyCase() throws {
        #expect(try matches("timeout", "Request timeout after 30s"))
        #expect(try matches("TIMEOUT", "request timeout"))
        #expect(try matches("timeout", "TIMEOUT!"))
        #expect(try !matches("timeout", "timeouts after retry"))
        #expect(try !matches("timeout", "time out"))
        #expect(try !matches("timeout", ""))
    }

    @Test func aPhraseIsItsTokensSideBySide() throws {
        #expect(try matches(#""connection reset""#, "Connection reset by peer"))
        #expect(try matches(#""connection reset""#, "connection: reset"))
        #expect(try !matches(#""connection reset""#, "reset connection"))
        #expect(try !matches(#""connection reset""#, "connection was reset"))
        #expect(try matches(#""a a""#, "a x a a"))
        #expect(try !matches(#""a a""#, "a x a"))
    }

    @Test func aStarMakesTheLastTokenAPrefix() throws {
        #expect(try matches("time*", "timeouts"))
        #expect(try matches("time*", "Timer fired"))
        #expect(try matches("time*", "time"))
        #expect(try !matches("time*", "overtime"))
        #expect(try matches(#""sync fail"*"#, "sync failed twice"))
        #expect(try !matches(#""sync fail"*"#, "syncing failed"))
    }

    @Test func identifiersAreFoundWholeAndByTheirParts() throws {
        #expect(try matches("E_TIMEOUT", "error E_TIMEOUT on upload"))
        #expect(try matches("E_TIMEOUT", "e-timeout"))
        #expect(try matches("timeout", "error E_TIMEOUT on upload"))
        #expect(try !matches("E_TIMEOUT", "timeout"))
        #expect(try matches("E_TIME*", "E_TIMEOUT"))
        #expect(try matches("com.example.app", "launched com.example.app v2"))
        #expect(try !matches("com.example.app", "launched com.example.apps"))
        #expect(try matches("com.exa*", "com.example.app"))
        #expect(try matches("example", "com.example.app"))
    }

    @Test func operatorsCombineAsTheSearchSays() throws {
        let message = "sync failed: server unreachable"
        #expect(try matches("sync server", message))
        #expect(try matches("sync AND server", message))
        #expect(try !matches("sync printer", message))
        #expect(try matches("printer OR server", message))
        #expect(try !matches("printer OR scanner", message))
        #expect(try !matches("sync NOT server", message))
        #expect(try matches("sync NOT printer", message))
        #expect(try matches("(printer OR sync) NOT scanner", message))
        #expect(try !matches("(printer OR sync) NOT server", message))
        // NOT binds tighter than AND, AND tighter than OR.
        #expect(try matches("printer OR sync NOT scanner", message))
        #expect(try matches("scanner NOT sync OR failed", message))
    }

    @Test func diacriticsAndCaseFoldAway() throws {
        #expect(try matches("café", "CAFE opened"))
        #expect(try matches("CAFE", "Café opened"))
        #expect(try matches("cafe", "cafe\u{301} opened"))  // e and a combining acute accent
        #expect(try matches("Straße", "STRASSE") == false)  // ß is its own letter, as in FTS5
        #expect(try matches("naïve", "NAIVE"))
    }

    @Test func otherScriptsAreTokensToo() throws {
        #expect(try matches("ошибка", "Ошибка сети"))
        #expect(try matches("ΣΦΆΛΜΑ", "σφάλμα δικτύου"))
        // A run of CJK characters is one token, as FTS5 splits it.
        #expect(try !matches("東京", "東京都"))
        #expect(try matches("東京*", "東京都"))
        #expect(try matches("エラー", "エラー 404"))
    }

    @Test func numbersAreTokens() throws {
        #expect(try matches("404", "HTTP 404 Not Found"))
        #expect(try !matches("404", "HTTP 4040"))
        #expect(try matches("40*", "HTTP 4040"))
        #expect(try matches("1.2.3", "version 1.2.3 installed"))
        #expect(try !matches("1.2.3", "version 1.2.30"))
    }

    @Test func punctuationOnlyTermsAreLeftOutAsFromTheExpression() throws {
        #expect(try matches("timeout ---", "timeout"))
        #expect(try matches("timeout NOT ---", "timeout --- here"))
        #expect(try matches("--- OR timeout", "timeout"))
    }

    @Test func aTermWithoutTokensMatchesNothing() throws {
        // Swift calls ⓐ a letter, so the search keeps it; FTS5's tokenizer does not, so the phrase is empty.
        #expect(try !matches("ⓐ", "ⓐ"))
        #expect(try matches("ⓐ OR timeout", "timeout"))
        #expect(try matches("timeout NOT ⓐ", "timeout ⓐ"))
        #expect(try !matches("timeout ⓐ", "timeout ⓐ"))
    }

    @Test func malformedBytesAreReadAsSQLiteReadsThem() throws {
        let matcher = try LogSearch("time").matcher()
        // An overlong NUL (C0 80) is U+FFFD to SQLite, a separator.
        let bytes: [UInt8] = Array("time".utf8) + [0xC0, 0x80] + Array("out".utf8)
        #expect(bytes.withUnsafeBufferPointer { matcher.matches(utf8: $0) })
        let timeout = try LogSearch("timeout").matcher()
        #expect(!bytes.withUnsafeBufferPointer { timeout.matches(utf8: $0) })
        // A stray continuation byte 0xAA is U+00AA (ª), a letter: "time" then ª joins the token.
        let stray: [UInt8] = Array("time".utf8) + [0xAA]
        #expect(!stray.withUnsafeBufferPointer { matcher.matches(utf8: $0) })
    }

    @Test func tokensSplitAndFoldAsUnicode61Does() {
        let tokenizer = Unicode61.shared
        func tokens(_ text: String) -> [String] { tokenizer.tokens(of: text).map { String(decoding: $0, as: UTF8.self) } }
        #expect(tokens("E_TIMEOUT com.example.app") == ["e", "timeout", "com", "example", "app"])
        #expect(tokens("Ǆ Ärger ÉCOLE") == ["ǆ", "arger", "ecole"])
        #expect(tokens("\u{301}e\u{301}x") == ["ex"])
        #expect(tokens("--- !!") == [])
        // SQLite's tables are Unicode 6.1: 😀 (6.1, a symbol) separates, 🙂 (7.0) was unassigned
        // then and counts as a letter.
        #expect(tokens("ab😀cd") == ["ab", "cd"])
        #expect(tokens("ab🙂cd") == ["ab🙂cd"])
    }

    @Test func highlightMarksEachPhraseInstanceFromFirstTokenToLast() throws {
        #expect(try marked("timeout", "Request timeout after timeout") == "Request [timeout] after [timeout]")
        #expect(try marked(#""connection reset""#, "Connection reset, peer") == "[Connection reset], peer")
        #expect(try marked("E_TIMEOUT", "error E_TIMEOUT.") == "error [E_TIMEOUT].")
        #expect(try marked("time*", "Timer, timeouts") == "[Timer], [timeouts]")
        #expect(try marked("cafe", "Café!") == "[Café]!")
    }

    @Test func overlappingInstancesAreOneMarkAndNeighboursTwo() throws {
        #expect(try marked(#""a a""#, "a a a") == "[a a a]")
        #expect(try marked(#""a a" OR a"#, "a x a b a") == "[a] x [a] b [a]")
        #expect(try marked(#""a b" b"#, "a b c") == "[a b] c")
        #expect(try marked(#""a b" "b c""#, "a b c") == "[a b c]")
        #expect(try marked("a b", "a b") == "[a] [b]")
    }

    @Test func onlyPhrasesThatTakePartInTheMatchAreMarked() throws {
        #expect(try marked("sync NOT printer", "sync server") == "[sync] server")
        #expect(try marked("(a NOT b) OR c", "a c") == "[a] [c]")
        #expect(try marked("(a NOT b) OR c", "a b c") == "a b [c]")
        #expect(try marked("(a AND b) OR c", "a c") == "a [c]")
        #expect(try marked("sync", "server") == "server")
    }

    @Test func requiredWordsAreTheLongestTokenOfEachWayToMatch() throws {
        #expect(try words("timeout") == ["timeout"])
        #expect(try words("E_TIMEOUT") == ["timeout"])
        #expect(try words("E_TIME*") == ["time"])
        #expect(try words("sync timeout") == ["timeout"])
        #expect(try words("sync OR timeout") == ["sync", "timeout"])
        #expect(try words("time* OR timeout") == ["time"])
        #expect(try words("timeout NOT server") == ["timeout"])
        #expect(try words("café") == ["cafe"])
        #expect(try words("ошибка") == [])
        #expect(try words("ошибка OR sync") == ["sync"])
        #expect(try words("ошибка sync") == [])
    }

    @Test func requiredWordsHoldForEveryASCIIMessageThatMatches() throws {
        let messages = ["E-TIMEOUT", "Sync failed: TIMEOUT", "CAFE", "cafe", "time out", "com.example.app v2", "a b c", "x"]
        for search in ["E_TIMEOUT", "sync timeout", "café OR time*", "(a OR b) NOT c", "com.exa*", "x OR ошибка"] {
            let matcher = try LogSearch(search).matcher()
            for message in messages where matcher.matches(message) {
                #expect(matcher.requiredASCIIWords.contains { message.lowercased().contains($0) }, "\(search) / \(message)")
            }
        }
    }
}
