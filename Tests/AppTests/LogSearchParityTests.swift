@testable import App
@testable import Domain
import Foundation
import Storage
import Testing

/// Lines the full-text index has not reached are judged by LogSearch.Matcher; these tests hold
/// it beside real FTS5 (the SQLite the console links, the log index's tokenizer and prefix
/// lengths) on the same lines and searches: the same lines must match and be marked alike.
@Suite struct LogSearchParityTests {
    /// Words, identifiers, numbers, accented and other scripts, punctuation: what log lines hold.
    static let pieces = [
        "connection", "reset", "timeout", "timeouts", "time", "timer", "request", "failed", "retry",
        "server", "sync", "synced", "syncing", "upload", "token", "session", "login", "network",
        "offline", "printer", "scan", "peer", "by", "a", "b", "c", "NEAR",
        "E_TIMEOUT", "E_NETWORK", "E_TIME", "HTTP_503", "com.example.sync", "com.example.app",
        "com.example.apps", "api.example.com", "v2.3.1", "Timeout", "SYNC",
        "404", "4040", "503", "30s", "1.2.3", "1.2.30", "2026-11-05", "0",
        "café", "Café", "CAFE", "cafe\u{301}", "naïve", "NAIVE", "Ärger", "straße", "STRASSE",
        "résumé", "Ǆ", "ǅ", "ﬁle", "Ｆｕｌｌ",
        "Ошибка", "ошибка", "сети", "σφάλμα", "ΣΦΆΛΜΑ", "東京", "東京都", "エラー", "错误",
        "ⓐ", "①", "😀", "🙂", "x²",
        "--", "!!", "(x)", "[error]", "->", "...", "\"quoted\"", "*", "_",
    ]
    static let separators = [" ", " ", " ", ", ", ": ", " - ", "/", "  ", "_", ".", "\t", ""]

    /// Searches as people type them.
    static let typed = [
        "timeout", "TIMEOUT", "time*", "tim*", "t*", #""connection reset""#, #""reset connection""#,
        "connection reset", "E_TIMEOUT", "e_timeout", "E_TIME*", "E_TIME", "timeout NOT E_TIMEOUT",
        "com.example.sync", "com.example.app", "com.exa*", #""com.example"*"#, "example", "api.example.com",
        "404", "40*", "1.2.3", #""1.2"*"#, "2026-11-05", "30s", "café", "CAFE", "cafe", "naïve",
        "straße", "STRASSE", "ärger", "résumé", "Ǆ", "file", "full", "ошибка", "ОШИБКА сети", "σφάλμα",
        "ΣΦΆΛΜΑ", "東京", "東京*", "エラー", "错误", "ⓐ", "①", "🙂", "x2", "sync OR upload", "sync upload",
        "sync NOT server", "(sync OR upload) NOT failed", "sync OR upload NOT failed", "a b", #""a b""#,
        #""a a""#, "a OR b OR c", "(a NOT b) OR c", "(a AND b) OR c", "a NOT (b OR c)", "retry* NOT retry",
        "sync* NOT synced", "timeout ---", "--- OR timeout", #""peer" OR "by""#, "NEAR(a b)", "login:failed",
        "token NOT session NOT login", "printer scan OR network offline", #""failed retry server""#,
        "v2.3.1", "HTTP_503", "503", "s*", "c*", "ca*", "caf*",
    ]

    let lines: [(id: Int, message: String)]
    let database: Database

    init() throws {
        var random = SeededRandom(seed: 25)
        lines = (1...3000).map { id in
            let count = Int.random(in: 1...12, using: &random)
            var message = ""
            for index in 0..<count {
                if index > 0 { message += Self.separators.randomElement(using: &random)! }
                message += Self.pieces.randomElement(using: &random)!
            }
            return (id, message)
        }
        database = try Database(path: ":memory:")
        try database.writeBlocking { connection in
            // As the log index is declared (Schema+LogSearchSpeed): external content, the
            // tokenizer, the prefix lengths that answer short prefixes from their own lists.
            try connection.execute(script: """
                CREATE TABLE lines(id INTEGER PRIMARY KEY, message TEXT NOT NULL);
                CREATE VIRTUAL TABLE line_search USING fts5(
                    message, content = 'lines', content_rowid = 'id',
                    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
                """)
            for line in lines {
                try connection.execute("INSERT INTO lines(id, message) VALUES (\(line.id), \(line.message))")
            }
            try connection.execute(script: "INSERT INTO line_search(line_search) VALUES ('rebuild')")
        }
    }

    /// How FTS5 and the matcher differ on one search, or nil when they agree.
    ///
    /// With `otherLinesExplain`, a line FTS5 marks otherwise is accepted when its marks hung on
    /// the other lines of this index (see Matcher.highlighted), shown one of two ways: FTS5
    /// marks it as the matcher does when it is the first line of an index whose other lines
    /// hold every phrase of the search and a way to match each NOT's left side; or the search
    /// has a NOT whose left side matches no line of this index, and FTS5 marks all the
    /// matcher marks, and more.
    func difference(_ text: String, otherLinesExplain: Bool) throws -> String? {
        let search = try LogSearch(text)
        let matcher = search.matcher()
        var marked: [Int: String] = [:]
        for row in try marks(search, table: "line_search") { marked[try row.get("rowid")] = try row.get("marked") }
        var problems: [String] = []
        // The prefilter as the tail scan writes it in SQL lets every line FTS5 matches through.
        var prefilter: SQL = "SELECT id FROM lines WHERE length(message) <> length(CAST(message AS BLOB))"
        for word in matcher.requiredASCIIWords { prefilter.append(" OR message LIKE \("%" + word + "%") ESCAPE '\\'") }
        let passed = try Set(database.readBlocking { try $0.rows(prefilter) }.map { try $0.get("id") as Int })
        for id in marked.keys where !passed.contains(id) {
            problems.append("line \(id) matches but does not hold any of \(matcher.requiredASCIIWords)")
        }
        for line in lines {
            let matched = matcher.matches(line.message)
            guard matched == (marked[line.id] != nil) else {
                problems.append("\(line.message.debugDescription): FTS5 \(marked[line.id] != nil), matcher \(matched)")
                continue
            }
            guard let expected = marked[line.id] else { continue }
            let highlighted = matcher.highlighted(line.message)
            if highlighted == expected { continue }
            if otherLinesExplain {
                if try markedFirst(line.message, search) == highlighted { continue }
                if try hasDeadNOT(search.tree), Self.spans(highlighted).allSatisfy({ mine in
                    Self.spans(expected).contains { $0.lowerBound <= mine.lowerBound && mine.upperBound <= $0.upperBound }
                }) { continue }
            }
            problems.append("\(line.message.debugDescription): FTS5 marks \(expected.debugDescription), matcher \(highlighted.debugDescription)")
        }
        return problems.isEmpty ? nil : "\(text) → \(search.expression): \(problems.count) lines differ, e.g. \(problems.prefix(3))"
    }

    func marks(_ search: LogSearch, table: String, where condition: SQL = "1") throws -> [Row] {
        try database.writeBlocking { connection in
            try connection.rows("""
                SELECT rowid, highlight(\(identifier: table), 0, char(1), char(2)) AS marked
                FROM \(identifier: table) WHERE \(identifier: table) MATCH \(search.expression) AND\u{20}
                """ + condition)
        }
    }

    /// FTS5's marks for a message read first, before lines holding each phrase of the search
    /// alone and lines matching each NOT's left side.
    func markedFirst(_ message: String, _ search: LogSearch) throws -> String? {
        func terms(_ node: LogSearch.Node) -> [String] {
            switch node {
            case .term(let text, _): [text]
            case .and(let l, let r), .or(let l, let r), .not(let l, let r): terms(l) + terms(r)
            }
        }
        func oneWayToMatch(_ node: LogSearch.Node) -> [String] {
            switch node {
            case .term(let text, _): [text]
            case .and(let l, let r): oneWayToMatch(l) + oneWayToMatch(r)
            case .or(let l, _), .not(let l, _): oneWayToMatch(l)
            }
        }
        func leftSidesOfNOT(_ node: LogSearch.Node) -> [LogSearch.Node] {
            switch node {
            case .term: []
            case .not(let l, let r): [l] + leftSidesOfNOT(l) + leftSidesOfNOT(r)
            case .and(let l, let r), .or(let l, let r): leftSidesOfNOT(l) + leftSidesOfNOT(r)
            }
        }
        let company = terms(search.tree) + leftSidesOfNOT(search.tree).map { oneWayToMatch($0).joined(separator: " | ") }
        try database.writeBlocking { connection in
            try connection.execute(script: """
                CREATE VIRTUAL TABLE IF NOT EXISTS first_line USING fts5(
                    message, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4');
                DELETE FROM first_line;
                """)
            for (index, text) in ([message] + company).enumerated() {
                try connection.execute("INSERT INTO first_line(rowid, message) VALUES (\(index + 1), \(text))")
            }
        }
        return try marks(search, table: "first_line", where: "rowid = 1").first?.get("marked")
    }

    /// Whether a NOT's left side matches no line of this index.
    func hasDeadNOT(_ node: LogSearch.Node) throws -> Bool {
        switch node {
        case .term: return false
        case .and(let l, let r), .or(let l, let r):
            if try hasDeadNOT(l) { return true }
            return try hasDeadNOT(r)
        case .not(let l, let r):
            let held = try database.readBlocking { connection in
                try connection.scalar("SELECT count(*) FROM line_search WHERE line_search MATCH \(l.rendered())", as: Int.self)
            }
            if held == 0 { return true }
            if try hasDeadNOT(l) { return true }
            return try hasDeadNOT(r)
        }
    }

    /// The byte ranges a marked message marks, in the message without its marks.
    static func spans(_ marked: String) -> [Range<Int>] {
        var spans: [Range<Int>] = []
        var offset = 0
        var start = 0
        for byte in marked.utf8 {
            switch byte {
            case 0x01: start = offset
            case 0x02: spans.append(start..<offset)
            default: offset += 1
            }
        }
        return spans
    }

    /// The searches among `texts` the viewer accepts, and how each that differs from FTS5 differs.
    private func differences(_ texts: some Sequence<String>, otherLinesExplain: Bool) throws -> (searched: Int, differences: [String]) {
        var searched = 0
        var differences: [String] = []
        for text in texts {
            guard (try? LogSearch(text)) != nil else { continue }
            searched += 1
            if let difference = try difference(text, otherLinesExplain: otherLinesExplain) { differences.append(difference) }
        }
        return (searched, differences)
    }

    @Test func typedSearchesFindAndMarkTheLinesFTS5Does() throws {
        let (searched, differences) = try differences(Self.typed, otherLinesExplain: false)
        #expect(searched >= 75)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    @Test func generatedSearchesFindAndMarkTheLinesFTS5Does() throws {
        var random = SeededRandom(seed: 2025)
        // Words and the start of words from the same pieces, quoted or not, with operators.
        func term() -> String {
            var word = Self.pieces.randomElement(using: &random)!
            if Int.random(in: 0..<4, using: &random) == 0, word.count > 1 {
                word = String(word.prefix(Int.random(in: 1..<word.count, using: &random))) + "*"
            }
            if Int.random(in: 0..<5, using: &random) == 0 {
                word = "\"\(word.replacingOccurrences(of: "\"", with: "")) \(Self.pieces.randomElement(using: &random)!.replacingOccurrences(of: "\"", with: ""))\""
            }
            return word
        }
        func expression(depth: Int) -> String {
            guard depth > 0, Int.random(in: 0..<3, using: &random) > 0 else { return term() }
            let left = expression(depth: depth - 1), right = expression(depth: depth - 1)
            let joined = "\(left) \(["AND", "OR", "NOT", ""].randomElement(using: &random)!) \(right)"
            return Bool.random(using: &random) ? "(\(joined))" : joined
        }
        let (searched, differences) = try differences((0..<300).map { _ in expression(depth: 3) }, otherLinesExplain: true)
        #expect(searched >= 200)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
    }

    /// Every 7th code point of the Basic Multilingual Plane and every 997th beyond, between
    /// letters and at the start: what the matcher's tables say of it is what the linked
    /// SQLite's tokenizer does (an SQLite upgrade that changed them would show here).
    @Test func tokensAgreeWithSQLiteAcrossUnicode() throws {
        let points = Array(stride(from: 0x80, to: 0x10000, by: 7)) + Array(stride(from: 0x10000, to: 0x110000, by: 997))
        let texts = points.compactMap(Unicode.Scalar.init).flatMap { scalar in ["x\(scalar)x", "\(scalar)x", "\(scalar)"] }
        let terms = try database.writeBlocking { connection in
            try connection.execute(script: """
                CREATE VIRTUAL TABLE probe USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE probe_terms USING fts5vocab(probe, instance);
                """)
            for (index, text) in texts.enumerated() {
                try connection.execute("INSERT INTO probe(rowid, text) VALUES (\(index), \(text))")
            }
            return try connection.rows("SELECT doc, term FROM probe_terms ORDER BY doc, offset")
        }
        var sqlite = [[String]](repeating: [], count: texts.count)
        for row in terms { sqlite[try row.get("doc") as Int].append(try row.get("term")) }
        var differences: [String] = []
        for (index, text) in texts.enumerated() {
            let swift = Unicode61.shared.tokens(of: text).map { String(decoding: $0, as: UTF8.self) }
            if swift != sqlite[index] { differences.append("\(text.unicodeScalars.map { String($0.value, radix: 16) }): SQLite \(sqlite[index]), Swift \(swift)") }
        }
        #expect(texts.count > 25_000)
        #expect(differences.isEmpty, "\(differences.prefix(20))")
    }

    /// Text stored with malformed UTF-8 (stray continuation bytes, cut and overlong sequences)
    /// splits into the tokens FTS5 stores for it, byte for byte.
    @Test func malformedTextSplitsAsSQLiteSplitsIt() throws {
        var random = SeededRandom(seed: 61)
        let pieces: [[UInt8]] = [Array("ab".utf8), Array("Z9".utf8), [0x20], [0x2E], [0x5F], [0x80], [0xAA], [0xBF], [0xC3],
                                 [0xC3, 0xA9], [0xC0, 0x80], [0xE2, 0x82], [0xE6, 0x9D, 0xB1], [0xED, 0xA0, 0x80],
                                 [0xEF, 0xBF, 0xBE], [0xF0, 0x9F, 0x99, 0x82], [0xF4, 0x90, 0x80, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80],
                                 [0xFE], [0xFF], [0xCC, 0x81]]
        let texts = (0..<2000).map { _ in
            (0..<Int.random(in: 1...12, using: &random)).flatMap { _ in pieces.randomElement(using: &random)! }
        }
        let terms = try database.writeBlocking { connection in
            try connection.execute(script: """
                CREATE VIRTUAL TABLE raw USING fts5(text, tokenize = 'unicode61 remove_diacritics 2');
                CREATE VIRTUAL TABLE raw_terms USING fts5vocab(raw, instance);
                """)
            for (index, bytes) in texts.enumerated() {
                try connection.execute("INSERT INTO raw(rowid, text) VALUES (\(index), CAST(\(Data(bytes)) AS TEXT))")
            }
            return try connection.rows("SELECT doc, CAST(term AS BLOB) AS term FROM raw_terms ORDER BY doc, offset")
        }
        #expect(terms.count > texts.count)
        var sqlite = [[[UInt8]]](repeating: [], count: texts.count)
        for row in terms { sqlite[try row.get("doc") as Int].append(Array(try row.get("term") as Data)) }
        var differences: [String] = []
        for (index, bytes) in texts.enumerated() {
            let swift = bytes.withUnsafeBufferPointer { Unicode61.shared.tokens(in: $0) }
            if swift != sqlite[index] { differences.append("\(bytes): SQLite \(sqlite[index]), Swift \(swift)") }
        }
        #expect(differences.isEmpty, "\(differences.prefix(10))")
    }
}
