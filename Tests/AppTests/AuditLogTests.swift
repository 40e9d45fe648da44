@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The audit log as an admin investigates with it: narrowed to a person, a kind of object,
/// an object and days; each entry one line with its values on expand; the same selection as
/// CSV that a spreadsheet opens without running anything typed into the console.
@Suite struct AuditLogTests {
    static let day = 86_400.0

    /// Entries over three days from two people, written straight into the log.
    func seed(_ console: TestConsole) throws -> Date {
        let start = console.clock.now.addingTimeInterval(-3 * Self.day)
        let ann = Actor(userID: nil, email: "ann@example.com"), bob = Actor(userID: nil, email: "bob@example.com")
        try console.services.database.writeBlocking { connection in
            try connection.audit(.deviceCreated, subject: "Lobby kiosk 01", by: ann, after: "group: Lobby", at: start)
            try connection.audit(.deviceUpdated, subject: "Lobby kiosk 01", by: bob, before: "group: Lobby", after: "group: Spare", at: start.addingTimeInterval(Self.day))
            try connection.audit(.profileEdited, subject: "Lobby lock (com.example.lobby)", by: ann, after: "version 2", at: start.addingTimeInterval(Self.day))
            // A code this console does not know, as another version of it may have stored.
            _ = try connection.insert(AuditEvent(occurredAt: start.addingTimeInterval(2 * Self.day), actorID: nil, actorEmail: ann.email,
                                                 action: "device_group.odd", subject: "not a device", before: nil, after: nil))
            try connection.audit(.noteAdded, subject: "=HYPERLINK(\"http://evil.example\",\"x\")", by: bob, after: "a, \"quoted\"\nline", at: start.addingTimeInterval(2 * Self.day))
        }
        return start
    }

    static func subjects(_ body: String) -> [String] {
        body.components(separatedBy: "<span class=\"subject\">").dropFirst().map { $0.components(separatedBy: "</span>").first ?? "" }
    }

    @Test func filtersNarrowByPersonKindObjectAndDays() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        let start = try seed(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            #expect(Self.subjects(try await admin.get("/audit?person=bob%40example.com").body).count == 2)
            let devices = Self.subjects(try await admin.get("/audit?type=device").body)
            #expect(devices == ["Lobby kiosk 01", "Lobby kiosk 01"], "device.* only, not device_group.*")
            #expect(Self.subjects(try await admin.get("/audit?object=lobby%20lock").body) == ["Lobby lock (com.example.lobby)"])
            #expect(Self.subjects(try await admin.get("/audit?object=100%25").body).isEmpty, "% is a character, not a wildcard")
            let firstDay = AuditFilter.dayText(start)
            #expect(Self.subjects(try await admin.get("/audit?from=\(firstDay)&through=\(firstDay)").body) == ["Lobby kiosk 01"])
            let page = try await admin.get("/audit?person=ann%40example.com&type=device")
            #expect(Self.subjects(page.body) == ["Lobby kiosk 01"])
            #expect(page.body.contains("<summary>Before and after</summary>"))
            #expect(page.body.contains("href=\"/audit.csv?person=ann@example.com&amp;type=device\""), "the CSV keeps the filter")
            // Nonsense in the address is no filter, never an error.
            #expect(try await admin.get("/audit?type=nuclear&from=yesterday&before=x").status == .ok)
        }
    }

    @Test func pagesKeepTheFilter() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        let actor = Actor(userID: nil, email: "ann@example.com")
        try console.services.database.writeBlocking { connection in
            for index in 0..<60 { try connection.audit(.deviceUpdated, subject: "Device \(index)", by: actor, at: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))) }
            try connection.audit(.appCreated, subject: "Not a device", by: actor, at: Date(timeIntervalSince1970: 1_700_000_000))
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let first = try await admin.get("/audit?type=device")
            #expect(Self.subjects(first.body).count == 50)
            let next = try #require(first.body.components(separatedBy: "rel=\"next\"").first?.components(separatedBy: "href=\"").last?.components(separatedBy: "\"").first)
            let second = try await admin.get(next.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(Self.subjects(second.body) == (0..<10).reversed().map { "Device \($0)" })
        }
    }

    @Test func theCSVHoldsEveryMatchingEntryAndDisarmsFormulas() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        try await console.addUser("desk@example.com", role: .helpdesk)
        _ = try seed(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let csv = try await admin.get("/audit.csv?person=bob%40example.com")
            #expect(csv.status == .ok && csv.headers[.contentType] == "text/csv; charset=utf-8")
            let lines = csv.body.components(separatedBy: "\r\n").filter { !$0.isEmpty }
            #expect(lines.first == "time_utc,person,action,action_code,subject,before,after")
            #expect(lines.count == 1 + 2, "a header and two entries, one value holding a quoted line break")
            #expect(csv.body.contains(",\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\","), "a formula is quoted text, not a formula")
            #expect(csv.body.contains(",\"a, \"\"quoted\"\"\nline\"\r\n"))
            #expect(csv.body.components(separatedBy: "device.updated").count == 2)

            let desk = Browser(client)
            try await desk.signIn("desk@example.com", password: TestConsole.password)
            #expect(try await desk.get("/audit.csv").status == .forbidden)
        }
    }

    /// The page lists newest first; the download, across its chunks, says the same order.
    @Test func theCSVListsEntriesInThePagesOrderNewestFirst() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        let actor = Actor(userID: nil, email: "ann@example.com")
        let count = AuditCSV.chunkSize + 50
        try console.services.database.writeBlocking { connection in
            for index in 0..<count { try connection.audit(.deviceUpdated, subject: "Device \(index)", by: actor, at: Date(timeIntervalSince1970: 1_700_000_000 + Double(index))) }
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let page = Self.subjects(try await admin.get("/audit?type=device").body)
            let csv = try await admin.get("/audit.csv?type=device")
            let subjects = csv.body.components(separatedBy: "\r\n").dropFirst().filter { !$0.isEmpty }.map { $0.components(separatedBy: ",")[4] }
            #expect(subjects.count == count)
            #expect(Array(subjects.prefix(page.count)) == page, "the file starts where the page does")
            #expect(subjects == (0..<count).reversed().map { "Device \($0)" }, "newest first, through every chunk")
        }
    }

    @Test func aReversedRangeIsPointedOutBesideTheDaysNotCalledEmpty() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        _ = try seed(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let page = try await admin.get("/audit?from=2026-11-20&through=2026-11-10")
            #expect(page.status == .unprocessableContent)
            #expect(page.body.contains(#"<p class="field-error" id="audit-range-error" role="alert">Through (2026-11-10) is before From (2026-11-20)"#))
            #expect(page.body.contains(#"id="audit-through" name="through" type="date" value="2026-11-10" aria-invalid="true""#))
            #expect(!page.body.contains("No entries match"))
            #expect(Self.subjects(page.body).isEmpty)
            let csv = try await admin.get("/audit.csv?from=2026-11-20&through=2026-11-10")
            #expect(csv.status == .unprocessableContent && csv.body.contains("is before From"))
            // One day is a range: From and Through the same day is fine.
            #expect(try await admin.get("/audit?from=2026-11-20&through=2026-11-20").status == .ok)
        }
    }

    @Test func aCellIsQuotedOnlyWhenItMustBe() {
        #expect(AuditCSV.cell("plain") == "plain")
        #expect(AuditCSV.cell("-1") == "'-1")
        #expect(AuditCSV.cell("@SUM(A1)") == "'@SUM(A1)")
        #expect(AuditCSV.cell("a\r\nb") == "\"a\r\nb\"")
    }
}
