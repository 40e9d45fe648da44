@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The full-text index behind the writer: an acknowledged line is found by every search
/// before the index reaches it, with the same answers as after; the index resumes where it
/// stopped; deleting takes lines out of the table and the index together; and the viewer and
/// the API say when the index is far behind.
/// SQLite's index behind the writer. On PostgreSQL each line carries its search vector from the
/// moment it is stored, so there is no lag to test; `LogSearchParityTests` runs there too.
@Suite(.enabled(if: TestBackend.current == .sqlite)) struct LogIndexingTests {
    typealias Seed = LogViewerTests

    /// Messages with the words, identifiers and punctuation people search logs for.
    static let corpus: [String] = [
        "Sync failed: E_TIMEOUT after 30 s", "Sync finished in 2.4 s", "Synced 14 records", "Opened com.example.checkin from a link",
        "Opened com.example.app settings", "Printer \"Ward 3\" offline", "Disk space low: 120 MB left", "disk SPACE check passed",
        "Battery at 12% — café kiosk", "Connection reset by peer", "Request failed with 503", "request retried after timeout",
        "E_TIMEOUT contacting api.example.com", "Timeout waiting for badge printer", "User signed in", "NOT a keyword, only text",
        "crash in BadgePrinter.flush()", "quokka spotted in the logs", "Sync failed again: E_AUTH", "Opened ward list",
    ]

    static let searches = [
        "sync", "SYNC", "sync*", "syn*", "\"sync failed\"", "\"disk space\"", "E_TIMEOUT", "timeout", "e_timeout OR e_auth",
        "com.example.checkin", "com.example.app", "example", "sync NOT failed", "sync AND (failed OR finished)", "opened -link",
        "cafe", "CAFÉ", "\"ward 3\"", "request failed", "quokka", "12", "printer NOT badge", "(battery OR disk) AND low", "\"e timeout\"*",
    ]

    /// Each search's lines (ids, newest first) and their marked messages, through the reader.
    static func answers(_ console: TestConsole) async throws -> [String: [String]] {
        var answers: [String: [String]] = [:]
        for text in searches {
            var filter = LogFilter()
            filter.searchText = text
            filter.search = try LogSearch(text)
            let rows = try await console.services.logReader.rows(filter, limit: 100).rows
            answers[text] = rows.map { "\($0.line.id) \($0.highlighted ?? "")" }
        }
        return answers
    }

    @Test func linesNotYetIndexedAreFoundExactlyAsOnceIndexed() async throws {
        let console = try await TestConsole.make(indexesLogs: false)
        // Half the lines reach the index, then the rest arrive: every search reads both parts.
        _ = try Seed.seed(console, Self.corpus.prefix(10).map { Seed.line($0) })
        try await console.services.logIndexer.catchUp()
        _ = try Seed.seed(console, Self.corpus.dropFirst(10).map { Seed.line($0) })
        #expect(try await console.services.logIndexer.lag().unindexedLines == 10)

        let before = try await Self.answers(console)
        #expect(try await console.services.logIndexer.catchUp() == 10)
        #expect(try await console.services.logIndexer.lag() == LogIndexLag())
        let after = try await Self.answers(console)
        for text in Self.searches {
            #expect(before[text] == after[text], "“\(text)” answers the same before and after indexing")
        }
        #expect(after["E_TIMEOUT"]?.count == 2 && after["quokka"]?.count == 1 && after["sync NOT failed"]?.count == 1)
        #expect(after["com.example.checkin"]?.first?.hasSuffix("Opened \u{1}com.example.checkin\u{2} from a link") == true)
    }

    @Test func pagesExportsAndDeletionPreviewsCountBothParts() async throws {
        let console = try await TestConsole.make(indexesLogs: false)
        _ = try Seed.seed(console, (0..<30).map { Seed.line("Sync \($0) failed", minutes: Double($0)) })
        try await console.services.logIndexer.catchUp()
        _ = try Seed.seed(console, (30..<60).map { Seed.line("Sync \($0) failed", minutes: Double($0)) })
        var filter = LogFilter()
        filter.searchText = "sync failed"
        filter.search = try LogSearch("sync failed")

        // A page of 50, newest first, crosses from the unindexed lines into the indexed ones.
        let page = try await console.services.logReader.rows(filter, limit: 50).rows
        #expect(page.map(\.line.message) == (9..<60).reversed().map { "Sync \($0) failed" })
        let preview = try await console.services.logReader.deletionPreview(.matching(filter))
        #expect(preview.count == 60)
        let newest = try #require(try await console.services.logReader.newestLineID())
        let chunk = try await console.services.logReader.exportChunk(filter, after: nil, through: newest, limit: 45)
        #expect(chunk.count == 45, "an export chunk reads the indexed lines, then the rest")
    }

    @Test func deletingASearchTakesLinesOutOfTheTableAndTheIndexTogether() async throws {
        let console = try await TestConsole.make(indexesLogs: false)
        _ = try Seed.seed(console, (0..<25).map { Seed.line($0 % 2 == 0 ? "Printer \($0) offline" : "Battery \($0) low") })
        try await console.services.logIndexer.catchUp()
        _ = try Seed.seed(console, (25..<50).map { Seed.line($0 % 2 == 0 ? "Printer \($0) offline" : "Battery \($0) low") })
        var filter = LogFilter()
        filter.searchText = "printer"
        filter.search = try LogSearch("printer")
        let deleted = try await console.services.logRemoval.delete(.matching(filter), describedAs: "printer lines", by: .system)
        #expect(deleted == 25)

        try await console.services.logIndexer.catchUp()
        try await console.services.logs.write { try $0.execute("INSERT INTO device_log_search(device_log_search, rank) VALUES ('integrity-check', 1)") }
        #expect(try await console.services.logReader.rows(filter, limit: 100).rows.isEmpty)
        filter.searchText = "battery"
        filter.search = try LogSearch("battery")
        #expect(try await console.services.logReader.rows(filter, limit: 100).rows.count == 25)
        let audit = try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "logs.deleted")) }
        #expect(audit.map(\.after) == ["Deleted 25 lines."])
    }

    @Test func indexingResumesWhereItStoppedWhenTheConsoleStartsAgain() async throws {
        let first = try await TestConsole.make(indexesLogs: false)
        _ = try Seed.seed(first, (0..<12_000).map { Seed.line("Line \($0) of the flood") })
        // One batch reached the index before the console stopped.
        #expect(try await first.services.logIndexer.indexNext() == LogIndexer.batchSize)
        let paths = (first.services.database.path, first.services.logs.path)

        var config = AppConfig()
        config.databasePath = paths.0
        config.dataDirectory = URL(fileURLWithPath: paths.0).deletingLastPathComponent().path
        config.templatesDirectory = TestConsole.packageRoot.appendingPathComponent("Templates").path
        config.helpDirectory = TestConsole.packageRoot.appendingPathComponent("docs/help").path
        config.indexesLogs = false
        let again = try await buildConsole(config: config)
        #expect(again.services.logs.path == paths.1)
        #expect(try await again.services.logIndexer.lag().unindexedLines == 12_000 - LogIndexer.batchSize)
        #expect(try await again.services.logIndexer.catchUp() == 12_000 - LogIndexer.batchSize)
        let (sizes, integrity) = try await again.services.logs.write { connection in
            // Every line once: the index's own check against the table, and one size row a line.
            try connection.execute("INSERT INTO device_log_search(device_log_search, rank) VALUES ('integrity-check', 1)")
            return (try connection.scalar("SELECT count(*) FROM device_log_search_docsize", as: Int.self),
                    try connection.rows("PRAGMA integrity_check").map { try $0.first(as: String.self) })
        }
        #expect(sizes == 12_000 && integrity == ["ok"])
    }

    @Test func theViewerAndTheAPISayWhenTheIndexIsFarBehind() async throws {
        let console = try await TestConsole.make(indexesLogs: false)
        _ = try Seed.seed(console, (0..<LogIndexLag.noticeableLines).map { Seed.line("Flood line \($0)") })
        try await console.test { client in
            let browser = try await LogViewerTests().helpdesk(console, client)
            let page = try await browser.get("/logs?q=flood")
            #expect(page.body.contains("Indexing — 20,000 lines still to index; results include them but are slower."))
            #expect(LogViewerTests.messages(page.body).first == "Flood line 19999", "the newest, not yet indexed, lines are on the page")

            let token = try await APITests().token(console, role: .helpdesk)
            let answer = try await APITests().call(client, .get, "/api/v1/logs?q=flood&limit=1", token: token)
            let index = answer.json["index"] as? [String: Any] ?? [:]
            #expect(index["unindexedLines"] as? Int == LogIndexLag.noticeableLines && index["upToDate"] as? Bool == false)

            try await console.services.logIndexer.catchUp()
            let caughtUp = try await browser.get("/logs?q=flood")
            #expect(!caughtUp.body.contains("Indexing —"))
            let upToDate = try await APITests().call(client, .get, "/api/v1/logs?q=flood&limit=1", token: token)
            let state = upToDate.json["index"] as? [String: Any] ?? [:]
            #expect(state["upToDate"] as? Bool == true && state["unindexedLines"] as? Int == 0)
        }
    }
}
