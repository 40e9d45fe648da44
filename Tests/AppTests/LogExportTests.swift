@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// Downloading log lines — chosen or every matching one, NDJSON or plain text — and deleting
/// them, which only admins may do, after a confirmation with the count, audited.
@Suite struct LogExportTests {
    typealias Seed = LogViewerTests

    static func ndjson(_ body: String) throws -> [[String: Any]] {
        try body.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    @Test func everyMatchingLineDownloadsOldestFirstWithEveryFieldIntact() async throws {
        let console = try await TestConsole.make()
        var line = Seed.line("Said \"no\" to C:\\path\n\tthen\u{1}stopped — café", minutes: 1.5)
        line.fields = ["screen": "ward \"3\"", "attempt": "2"]
        line.appVersion = "2.4 (118)"
        let awkward = line
        _ = try Seed.seed(console, [Seed.line("First timeout", minutes: 0), awkward, Seed.line("Unrelated", level: .information, minutes: 2),
                                    Seed.line("Last timeout", minutes: 3)])
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let all = try await browser.get("/logs/export?level=error&format=ndjson")
            #expect(all.status == .ok)
            #expect(all.headers[.contentType]?.hasPrefix("application/x-ndjson") == true)
            #expect(all.headers[.contentDisposition]?.hasPrefix("attachment; filename=\"logs-") == true)
            let objects = try Self.ndjson(all.body)
            #expect(objects.map { $0["message"] as? String } == ["First timeout", awkward.message, "Last timeout"])
            let second = objects[1]
            #expect(second["fields"] as? [String: String] == awkward.fields)
            #expect(second["appVersion"] as? String == "2.4 (118)")
            #expect(second["timestamp"] as? String == "2027-01-15T08:01:30Z")
            #expect(second["deviceName"] as? String == "Clinic iPad 3" && second["level"] as? String == "error" && second["type"] as? String == "application")
            #expect(second["signature"] is NSNull)

            let searched = try await browser.get("/logs/export?q=timeout&format=text")
            #expect(searched.headers[.contentType]?.hasPrefix("text/plain") == true)
            let text = searched.body.split(separator: "\n")
            #expect(text.count == 2 && text[0].hasPrefix("2027-01-15T08:00:00Z ERROR Clinic iPad 3  com.example.clinicnotes: First timeout"))
        }
    }

    @Test func anEmptyStoreDownloadsNothingAndDeletesNothing() async throws {
        let console = try await TestConsole.make()
        let api = APITests()
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let export = try await client.execute(uri: "/api/v1/logs/export?level=error", method: .get, headers: [.authorization: "Bearer \(admin)"])
            #expect(export.status == .ok && export.body.readableBytes == 0)
            let deleted = try await api.call(client, .delete, "/api/v1/logs?all=true", token: admin)
            #expect(deleted.status == .ok && deleted.json["deleted"] as? Int == 0)
        }
    }

    @Test func aMultiLineMessageStaysOneRecordInPlainText() async throws {
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, [Seed.line("Thread 0 crashed\n0 libswiftCore\n1 ClinicNotes", kind: .crash)])
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let text = try await browser.get("/logs/export?format=text")
            #expect(text.body.hasSuffix(" [crash]: Thread 0 crashed\n    0 libswiftCore\n    1 ClinicNotes\n"))
        }
    }

    @Test func chosenLinesDownloadAloneAndMoreThanAThousandAreRefused() async throws {
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, (0..<6).map { Seed.line("Line \($0)", minutes: Double($0)) })
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let page = try await browser.get("/logs")
            #expect(page.body.contains("form=\"log-selection\""))
            #expect(!page.body.contains("id=\"delete-chosen\""), "helpdesk is not offered deletion")
            let chosen = try await browser.post("/logs/export", pairs: [("format", "ndjson"), ("line", "5"), ("line", "2")])
            #expect(try Self.ndjson(chosen.body).map { $0["message"] as? String } == ["Line 1", "Line 4"])
            _ = try await browser.get("/logs")
            let none = try await browser.post("/logs/export", pairs: [("format", "ndjson"), ("back", "/logs?app=x")])
            #expect(none.status == .seeOther && none.location == "/logs?app=x")
            _ = try await browser.get("/logs")
            let many = try await browser.post("/logs/export", pairs: (0...1000).map { ("line", String($0 + 1)) })
            #expect(many.status == .seeOther)
            _ = try await browser.get("/logs")
            let offsite = try await browser.post("/logs/export", pairs: [("line", "1"), ("back", "//evil.example/")])
            #expect(offsite.status == .badRequest && offsite.location == nil)
            _ = try await browser.get("/logs")
            #expect(try await browser.post("/logs/export", pairs: [("line", "1"), ("format", "xml")]).status == .badRequest)
        }
    }

    @Test func anExportLargerThanAChunkArrivesWholeAndInOrder() async throws {
        let console = try await TestConsole.make()
        let count = LogDownload.chunkSize * 2 + 17
        _ = try Seed.seed(console, (0..<count).map { Seed.line("Line \($0)", minutes: Double($0) / 60) })
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let all = try await browser.get("/logs/export")
            let messages = try Self.ndjson(all.body).map { $0["message"] as? String }
            #expect(messages.count == count)
            #expect(messages == (0..<count).map { "Line \($0)" })
        }
    }

    @Test func onlyAdminsDeleteAndOnlyAfterConfirmingTheCount() async throws {
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, [Seed.line("Printer offline", minutes: 0), Seed.line("Printer jammed", minutes: 1),
                                    Seed.line("Scanner offline", minutes: 2), Seed.line("Printer offline", app: "com.example.other", minutes: 3)])
        try await console.addUser("ada@example.com", role: .admin)
        try await console.test { client in
            let helpdesk = try await Seed().helpdesk(console, client)
            #expect(try await helpdesk.get("/logs/delete?q=printer").status == .forbidden)
            _ = try await helpdesk.get("/logs")
            #expect(try await helpdesk.post("/logs/delete", pairs: [("line", "1"), ("confirmed", "yes")]).status == .forbidden)

            let admin = Browser(client)
            try await admin.signIn("ada@example.com", password: TestConsole.password)
            let confirm = try await admin.get("/logs/delete?q=printer&app=com.example.clinicnotes")
            #expect(confirm.body.contains("<strong id=\"delete-count\">2 lines</strong>"))
            #expect(confirm.body.contains("from com.example.clinicnotes, matching “printer”"))
            #expect(try await Self.lineCount(console) == 4, "asking changes nothing")

            let done = try await admin.post("/logs/delete?q=printer&app=com.example.clinicnotes", pairs: [("confirmed", "yes"), ("scope", "matching")])
            #expect(done.status == .seeOther)
            #expect(try await Self.messages(console) == ["Scanner offline", "Printer offline"])
            let usage = try await console.services.logs.read { try $0.fetch(LogUsage.self, LogQueries.usage(of: ["com.example.clinicnotes"])) }
            #expect(usage.first?.lineCount == 1 && usage.first?.byteCount == "Scanner offline".utf8.count)
            let entry = try await console.services.database.read { try $0.fetchOne(AuditEvent.query().filter("action", .equal, "logs.deleted")) }
            #expect(entry?.actorEmail == "ada@example.com" && entry?.after == "Deleted 2 lines.")
            #expect(entry?.subject == "lines from com.example.clinicnotes, matching “printer”")

            // Chosen lines: the viewer's form gets the confirmation first.
            _ = try await admin.get("/logs")
            let chosen = try await admin.post("/logs/delete", pairs: [("line", "3")])
            #expect(chosen.status == .ok && chosen.body.contains("1 line</strong>: 1 chosen line."))
            #expect(try await Self.lineCount(console) == 2)
            _ = try await admin.post("/logs/delete", pairs: [("line", "3"), ("confirmed", "yes")])
            #expect(try await Self.messages(console) == ["Printer offline"])
        }
    }

    static func lineCount(_ console: TestConsole) async throws -> Int {
        try await console.services.logs.read { try $0.count(DeviceLogRecord.query()) }
    }

    static func messages(_ console: TestConsole) async throws -> [String] {
        try await console.services.logs.read { try $0.fetch(DeviceLogRecord.query().order(by: "id")) }.map(\.message)
    }

    @Test func isoTimesMatchFoundationsAcrossCenturiesLeapDaysAndFractions() {
        for seconds: Double in [0, 951_782_400, 951_868_799.5, 1_709_164_800.25, -86_400, 4_102_444_800, 1_800_000_000.999] {
            var bytes: [UInt8] = []
            LogExport.appendISOTime(.real(seconds), to: &bytes)
            let date = Date(timeIntervalSince1970: seconds)
            let expected = seconds.truncatingRemainder(dividingBy: 1) == 0 ? DisplayTime.iso(date)
                : date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
            #expect(String(decoding: bytes, as: UTF8.self) == expected.replacingOccurrences(of: "+0000", with: "Z").replacingOccurrences(of: "+00:00", with: "Z"))
        }
    }
}

/// The same downloads, crash groups and deletion for scripts.
@Suite struct LogsAPIExportTests {
    typealias Seed = LogViewerTests

    @Test func scriptsDownloadReadCrashGroupsAndDeleteWithTheViewersFilters() async throws {
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, [Seed.line("Printer offline", minutes: 0), Seed.line("Printer jammed", level: .warning, minutes: 1),
                                    CrashGroupTests.crash("0xbeef", version: "2.4", minutes: 2)])
        let api = APITests()
        let helpdesk = try await api.token(console, role: .helpdesk)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let export = try await client.execute(uri: "/api/v1/logs/export?q=printer&format=text", method: .get,
                                                  headers: [.authorization: "Bearer \(helpdesk)"])
            #expect(export.status == .ok)
            let text = String(buffer: export.body)
            #expect(text.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 2 && text.contains("WARNING Clinic iPad 3"))
            let wrongFormat = try await api.call(client, .get, "/api/v1/logs/export?format=xml", token: helpdesk)
            #expect(wrongFormat.status == .badRequest && api.errorCode(wrongFormat.json) == "invalid_query")

            let crashes = try await api.call(client, .get, "/api/v1/logs/crashes?app=com.example.clinicnotes", token: helpdesk)
            let groups = try #require(crashes.json["crashGroups"] as? [[String: Any]])
            #expect(groups.count == 1 && groups.first?["crashes"] as? Int == 1 && groups.first?["appVersions"] as? [String] == ["2.4"])
            let reports = try await api.call(client, .get, try #require(groups.first?["logs"] as? String), token: helpdesk)
            #expect((reports.json["logs"] as? [[String: Any]])?.count == 1)

            let refused = try await api.call(client, .delete, "/api/v1/logs?q=printer", token: helpdesk)
            #expect(refused.status == .forbidden)
            let unnamed = try await api.call(client, .delete, "/api/v1/logs", token: admin)
            #expect(unnamed.status == .badRequest && api.errorCode(unnamed.json) == "filter_required")
            #expect(try await LogExportTests.lineCount(console) == 3)
            let deleted = try await api.call(client, .delete, "/api/v1/logs?q=printer&level=error", token: admin)
            #expect(deleted.status == .ok && deleted.json["deleted"] as? Int == 1)
            let byID = try await api.call(client, .delete, "/api/v1/logs?line=2", token: admin)
            #expect(byID.json["deleted"] as? Int == 1)
            #expect(try await LogExportTests.messages(console).count == 1)
            let everything = try await api.call(client, .delete, "/api/v1/logs?all=true", token: admin)
            #expect(everything.json["deleted"] as? Int == 1)
        }
    }
}
