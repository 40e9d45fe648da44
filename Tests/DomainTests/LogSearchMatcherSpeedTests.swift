import Domain
import Testing

/// The matcher scans the lines the index has not reached while a person waits for results:
/// it must agree with a plain split of ASCII lines into words, and it prints how fast it goes
/// (not asserted: the machine is shared).
@Suite struct LogSearchMatcherSpeedTests {
    static let words = "connection timeout request failed retry server response cache sync synced upload token refresh session user login logout network offline online battery location geofence scan barcode print receipt payment card declined approved".split(separator: " ").map(String.init)
    static let codes = ["E_TIMEOUT", "E_NETWORK", "E_AUTH_EXPIRED", "HTTP_503", "ERR_SSL", "com.example.checkin", "api.example.com", "42", "1500ms"]

    /// About 100 bytes of ASCII each, as devices log them.
    static let lines: [String] = {
        var random = SystemRandomNumberGenerator()
        return (0..<200_000).map { _ in
            var line = ""
            while line.utf8.count < 95 {
                let piece = Int.random(in: 0..<5, using: &random) == 0 ? codes.randomElement(using: &random)! : words.randomElement(using: &random)!
                line += (line.isEmpty ? "" : [" ", ": ", ", ", " - "].randomElement(using: &random)!) + piece
            }
            return line
        }
    }()

    @Test func scansAsciiLinesAsAPlainWordSplitWouldAndSaysHowFast() throws {
        let timeout = try LogSearch("timeout").matcher()
        let expected = Self.lines.filter { line in
            line.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.contains("timeout")
        }.count
        #expect(Self.lines.filter(timeout.matches).count == expected)
        #expect(expected > 0 && expected < Self.lines.count)

        for text in ["timeout", #""E_TIME"*"#, "sync NOT server", #""connection reset""#, "retry OR upload failed"] {
            let matcher = try LogSearch(text).matcher()
            let clock = ContinuousClock()
            var matched = 0
            let elapsed = clock.measure {
                for line in Self.lines where matcher.matches(line) { matched += 1 }
            }
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            print("LogSearch.Matcher \(text): \(Int(Double(Self.lines.count) / seconds)) lines/s (\(matched) of \(Self.lines.count) matched)")
        }
    }
}
