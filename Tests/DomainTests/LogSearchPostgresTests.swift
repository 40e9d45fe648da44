import Domain
import Testing

/// What PostgreSQL is handed for log search: a line's tokens as FTS5's tokenizer makes them,
/// with their positions, and a search over the same tokens.
@Suite struct LogSearchPostgresTests {
    @Test func aLinesWordsAreSplitAndFoldedAsTheSQLiteIndexSplitsThem() {
        #expect(LogSearchVector.tsvector(of: "E_TIMEOUT at com.example.app: Café!") == "'e':1 'timeout':2 'at':3 'com':4 'example':5 'app':6 'cafe':7")
        #expect(LogSearchVector.tsvector(of: "--- ...") == "")
    }

    @Test func positionsCountOnPastOneDigitAndLaterWordsShareTheLastOne() {
        let twelve = (1...12).map { "w\($0)" }.joined(separator: " ")
        #expect(LogSearchVector.tsvector(of: twelve) == (1...12).map { "'w\($0)':\($0)" }.joined(separator: " "))
        let long = LogSearchVector.tsvector(of: Array(repeating: "a", count: 16_385).joined(separator: " "))
        #expect(long.hasSuffix("'a':16382 'a':16383 'a':16383 'a':16383"))
        #expect(LogSearchVector.tsvector(of: "naïve ünïcödé 東京") == "'naive':1 'unicode':2 '東京':3")
    }

    @Test func aSearchBecomesPhrasesOfTheSameTokens() throws {
        #expect(try LogSearch("E_TIMEOUT").tsquery == "('e' <-> 'timeout')")
        #expect(try LogSearch("\"disk space\" OR sync*").tsquery == "(('disk' <-> 'space') | ('sync':*))")
        #expect(try LogSearch("request NOT failed").tsquery == "(('request') & !('failed'))")
        #expect(try LogSearch("com.example.app crash").tsquery == "(('com' <-> 'example' <-> 'app') & ('crash'))")
    }
}
