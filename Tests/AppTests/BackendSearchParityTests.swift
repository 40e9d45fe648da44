@testable import App
import Domain
import Foundation
import Storage
import Testing

/// One corpus stored on both backends — SQLite's FTS5 index and PostgreSQL's search words —
/// and the same searches asked of each through the console's own reader: the answers must be
/// the same lines, whatever the words (identifiers, accents, other scripts, punctuation).
@Suite(.enabled(if: TestBackend.current == .sqlite && TestBackend.server != nil)) struct BackendSearchParityTests {
    @Test func bothBackendsFindTheSameLinesForEverySearch() async throws {
        let sqlite = try await TestConsole.make()
        let postgres = try await TestConsole.make(onPostgreSQL: true)
        var random = SeededRandom(seed: 26)
        let messages = (0..<1_500).map { _ in
            (0..<Int.random(in: 1...10, using: &random)).map { index in
                (index > 0 ? LogSearchParityTests.separators.randomElement(using: &random)! : "")
                    + LogSearchParityTests.pieces.randomElement(using: &random)!
            }.joined()
        }
        for console in [sqlite, postgres] {
            let device = try LogViewerTests.seed(console, [])
            for start in stride(from: 0, to: messages.count, by: 500) {
                try console.services.logs.writeBlocking { connection in
                    try LogStore.append(messages[start..<min(start + 500, messages.count)].map { LogViewerTests.line($0) },
                                        from: LogStore.Uploader(id: device, name: "Parity iPad"), receivedAt: LogViewerTests.start, in: connection)
                }
                // SQLite's first thousand lines reach its index, the rest wait behind it: the
                // answers are the same either way, and must be PostgreSQL's too.
                if console.services.logs.dialect == .sqlite && start == 500 { try await console.services.logIndexer.catchUp() }
            }
        }
        #expect(try await sqlite.services.logIndexer.lag().unindexedLines == 500)

        for typed in LogSearchParityTests.typed {
            // Searches the console refuses (punctuation alone) are refused alike on both.
            guard let search = try? LogSearch(typed) else { continue }
            var filter = LogFilter()
            filter.searchText = typed
            filter.search = search
            let fromSQLite = try await sqlite.services.logReader.rows(filter, limit: 5_000).rows
            let fromPostgreSQL = try await postgres.services.logReader.rows(filter, limit: 5_000).rows
            #expect(fromPostgreSQL.map(\.line.message) == fromSQLite.map(\.line.message), "\(typed)")
            #expect(fromPostgreSQL.map(\.highlighted) == fromSQLite.map(\.highlighted), "the matched words of \(typed) are marked alike")
        }
    }
}
