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

/// The device list's search box folds case by one rule (`SearchFolding`) on both backends:
/// the same devices are found on SQLite and PostgreSQL for every search, in every script.
@Suite(.enabled(if: TestBackend.current == .sqlite && TestBackend.server != nil)) struct DeviceSearchParityTests {
    static let names = ["ΣΊΣΥΦΟΣ", "σίσυφος front desk", "İstanbul desk", "ISTANBUL kiosk", "Straße 3", "STRASSE 4", "ﬁle room",
                        "Café Ünïcode", "Cafe\u{301} decomposed", "ǅemal", "Ward iPad", "lobby KIOSK 03", "Ελληνικά"]
    static let owners = ["Σίσυφος", "İsmail", "ßabine", "", "Åsa", "josé", "JOSÉ"]
    static let typed = ["σίσυφος", "ΣΊΣΥΦΟΣ", "σίσυφοσ", "İSTANBUL", "istanbul", "İstanbul", "Istanbul", "strasse", "STRAßE", "ß", "ss",
                        "file", "ﬁ", "café", "cafe\u{301}", "CAFÉ", "ǆ", "Ǆemal", "kiosk", "KI", "ki", "ελλ", "ΕΛΛ", "josé", "JOSÉ", "jo",
                        "ŞİŞLİ", "i", "İ", "Å", "å", "σ", "Σ", "ς", "\u{301}"]

    @Test func bothBackendsFindTheSameDevicesForEverySearch() async throws {
        let sqlite = try await TestConsole.make()
        let postgres = try await TestConsole.make(onPostgreSQL: true)
        for console in [sqlite, postgres] {
            try await console.services.database.write { connection in
                for (index, name) in Self.names.enumerated() {
                    _ = try connection.insert(DeviceRecord(
                        name: name, model: .iPad, osVersion: "17.4", serialNumber: "DMPX\(1000 + index)", udid: "00008101-\(100000 + index)",
                        isSupervised: true, owner: Self.owners[index % Self.owners.count], groupID: nil, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil))
                }
            }
        }
        func found(_ console: TestConsole, _ typed: String) async throws -> [String] {
            var filter = DeviceListFilter()
            filter.search = typed
            return try await console.services.catalogReader.deviceList(filter, limit: 100, now: Date()).devices.map(\.device.name).sorted()
        }
        for typed in Self.typed {
            let fromSQLite = try await found(sqlite, typed)
            #expect(try await found(postgres, typed) == fromSQLite, "\(typed)")
        }
        #expect(Set(try await found(postgres, "σίσυφος")).isSuperset(of: ["σίσυφος front desk", "ΣΊΣΥΦΟΣ"]), "by name, and by owner Σίσυφος")
        #expect(try await found(sqlite, "istanbul") == ["ISTANBUL kiosk", "İstanbul desk"].sorted())
        #expect(try await found(postgres, "İSTANBUL") == ["ISTANBUL kiosk", "İstanbul desk"].sorted())
        #expect(try await found(sqlite, "strasse") == ["STRASSE 4", "Straße 3"])
        #expect(try await found(postgres, "cafe\u{301}") == ["Cafe\u{301} decomposed", "Café Ünïcode"].sorted())
    }
}
