@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The log viewer as helpdesk uses it: filters, full-text search with marked matches, pages
/// that stay put while lines arrive, and nothing a device or a searcher types can break it.
@Suite struct LogViewerTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// A device and `lines` stored through the log store, as an upload would.
    static func seed(_ console: TestConsole, _ lines: [LogLine], deviceName: String = "Clinic iPad 3") throws -> RecordID<DeviceRecord> {
        let device = try console.services.database.writeBlocking { connection in
            try connection.fetchOne(DeviceRecord.query().filter("name", .equal, deviceName)) ?? connection.insert(DeviceRecord(
                name: deviceName, model: .iPad, osVersion: "18.1", serialNumber: "DMPX\(deviceName.count)ABCD",
                udid: "00008101-00000000000000\(deviceName.count)", isSupervised: true, owner: "", groupID: nil, installedApps: [],
                enrolledAt: start, lastCheckInAt: nil))
        }
        try console.services.logs.writeBlocking { connection in
            try LogStore.append(lines, from: LogStore.Uploader(id: device.id, name: device.name), receivedAt: start, in: connection)
        }
        return device.id
    }

    static func line(_ message: String, level: LogLevel = .error, kind: SimulatedLog.Kind = .application, app: String = "com.example.clinicnotes",
                     minutes: Double = 0) -> LogLine {
        LogLine(app: app, level: level, kind: kind, loggedAt: start.addingTimeInterval(minutes * 60), message: message)
    }

    func helpdesk(_ console: TestConsole, _ client: any TestClientProtocol) async throws -> Browser {
        try await console.addUser("hal@example.com", role: .helpdesk)
        let browser = Browser(client)
        try await browser.signIn("hal@example.com", password: TestConsole.password)
        return browser
    }

    /// The messages of a page's rows, in order, without their markup.
    static func messages(_ html: String) -> [String] {
        html.components(separatedBy: "<td class=\"log-message\">").dropFirst().map { cell in
            let text = String(cell.prefix { $0 != "\n" }).components(separatedBy: "</td>").first ?? ""
            return text.replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
        }
    }

    @Test func searchFindsIdentifiersByTheirPartsAndMarksTheMatches() async throws {
        let console = try await TestConsole.make()
        _ = try Self.seed(console, [
            Self.line("Sync failed: E_TIMEOUT after 30 s"),
            Self.line("Opened com.example.checkin from a link", level: .information),
            Self.line("Battery low"),
            Self.line("Connection reset by peer", level: .warning),
        ])
        try await console.test { client in
            let browser = try await helpdesk(console, client)
            let byPart = try await browser.get("/logs?q=timeout")
            #expect(Self.messages(byPart.body) == ["Sync failed: E_TIMEOUT after 30 s"])
            #expect(byPart.body.contains("E_<mark>TIMEOUT</mark>"))
            let whole = try await browser.get("/logs?q=E_TIMEOUT")
            #expect(Self.messages(whole.body) == ["Sync failed: E_TIMEOUT after 30 s"])
            let host = try await browser.get("/logs?q=checkin")
            #expect(Self.messages(host.body) == ["Opened com.example.checkin from a link"])
            let prefix = try await browser.get("/logs?q=conn*")
            #expect(Self.messages(prefix.body) == ["Connection reset by peer"])
            // As a browser's search form sends it: spaces as +.
            let formSent = try await browser.get("/logs?q=%22battery+low%22+OR+reset")
            #expect(Self.messages(formSent.body) == ["Connection reset by peer", "Battery low"])
            let either = try await browser.get("/logs?q=%22battery%20low%22%20OR%20reset")
            #expect(Self.messages(either.body) == ["Connection reset by peer", "Battery low"])
            let without = try await browser.get("/logs?q=failed%20NOT%20battery&level=error")
            #expect(Self.messages(without.body) == ["Sync failed: E_TIMEOUT after 30 s"])
        }
    }

    @Test func noSearchEverReachesTheUserAsAnSQLiteError() async throws {
        let console = try await TestConsole.make()
        _ = try Self.seed(console, [Self.line("Printer offline"), Self.line("E_TIMEOUT near the door")])
        let hostile = [#"""#, #"a""#, #""a" "b"#, "*", "a*b", "NEAR(a b)", "NEAR", "message:printer", "^printer", "-printer", "+printer",
                       "a AND", "OR", "NOT a", "(a", "a)", "()", "a OR OR b", "\"\"", "'; DROP TABLE device_logs; --", "%", "_",
                       "\u{1}x", "🙂", "a\u{0}b", "{printer}", "printer:*", "col:\"x\"", String(repeating: "(", count: 50),
                       String(repeating: "a ", count: 200)]
        // And a few hundred built from the same pieces, bound by count, not time.
        var generator = SystemRandomNumberGenerator()
        let pieces = ["printer", "E_TIMEOUT", "\"", "(", ")", "*", "AND", "OR", "NOT", "NEAR", ":", "^", "-", "door", "com.example"]
        let generated = (0..<300).map { _ in (0..<Int.random(in: 1...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined(separator: [" ", ""].randomElement(using: &generator)!) }
        try await console.test { client in
            let browser = try await helpdesk(console, client)
            for query in hostile + generated {
                let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                let page = try await browser.get("/logs?q=\(encoded)")
                // A NUL no browser sends is refused with the address, on either backend.
                let expected: Set<Int> = query.contains("\u{0}") ? [400] : [200, 422]
                #expect(expected.contains(page.status.code), "\(query.debugDescription) → \(page.status.code)")
                if page.status == .unprocessableContent { #expect(page.body.contains("id=\"log-search-error\""), "\(query)") }
                #expect(!page.body.lowercased().contains("fts5") && !page.body.contains("SQLITE"), "\(query)")
            }
            let unbalanced = try await browser.get("/logs?q=%22printer")
            #expect(unbalanced.body.contains("A quote is not closed"))
            // The search is kept in the box to fix.
            #expect(unbalanced.body.contains(#"value="&quot;printer""#))
        }
    }

    @Test func whatDevicesSendIsShownAsTextNeverAsMarkup() async throws {
        let console = try await TestConsole.make()
        _ = try Self.seed(console, [Self.line("<script>alert(1)</script><img src=x onerror=alert(2)>", kind: .crash)],
                          deviceName: "<b>evil</b>")
        try await console.test { client in
            let browser = try await helpdesk(console, client)
            for path in ["/logs", "/logs?q=script", "/logs?rows=only"] {
                let page = try await browser.get(path)
                #expect(!page.body.contains("<script>alert"), "\(path)")
                #expect(!page.body.contains("<img src=x"), "\(path)")
                #expect(!page.body.contains("<b>evil"), "\(path)")
                #expect(page.body.contains("&lt;script&gt;") || page.body.contains("&lt;<mark>script</mark>&gt;"), "\(path)")
            }
        }
    }

    @Test func pagesStayPutWhileNewLinesArrive() async throws {
        let console = try await TestConsole.make()
        _ = try Self.seed(console, (1...120).map { Self.line("line \($0)", minutes: Double($0)) })
        try await console.test { client in
            let browser = try await helpdesk(console, client)
            let first = try await browser.get("/logs")
            #expect(Self.messages(first.body) == (71...120).reversed().map { "line \($0)" })
            let next = try #require(first.body.components(separatedBy: #"id="load-more""#).first?.components(separatedBy: #"href=""#).last?
                .prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            // Lines arriving between the two pages do not shift the second one.
            _ = try Self.seed(console, (121...130).map { Self.line("line \($0)", minutes: Double($0)) })
            let second = try await browser.get(String(next) + "&rows=only")
            #expect(Self.messages(second.body) == (21...70).reversed().map { "line \($0)" })
            let third = try #require(second.headers[HTTPField.Name("X-Next-Page")!])
            let last = try await browser.get(third + "&rows=only")
            #expect(Self.messages(last.body) == (1...20).reversed().map { "line \($0)" })
            #expect(last.headers[HTTPField.Name("X-Next-Page")!] == nil)
        }
    }

    @Test func filtersNarrowByLevelTypeDeviceAndTime() async throws {
        let console = try await TestConsole.make()
        let clinic = try Self.seed(console, [
            Self.line("an error", level: .error, minutes: 1), Self.line("a warning", level: .warning, minutes: 2),
            Self.line("some info", level: .information, minutes: 3), Self.line("a crash", kind: .crash, minutes: 4),
        ])
        _ = try Self.seed(console, [Self.line("elsewhere", minutes: 5)], deviceName: "Lobby kiosk")
        try await console.test { client in
            let browser = try await helpdesk(console, client)
            #expect(Self.messages(try await browser.get("/logs?level=warning&device=\(clinic)").body) == ["a crash", "a warning", "an error"])
            #expect(Self.messages(try await browser.get("/logs?type=crash").body) == ["a crash"])
            #expect(Self.messages(try await browser.get("/logs?from=2027-01-15T08:02:00Z&to=2027-01-15T08:04:00Z").body) == ["some info", "a warning"])
            // A local time from the page's boxes, with the browser's offset (UTC+1 is -60).
            #expect(Self.messages(try await browser.get("/logs?from=2027-01-15T09:05&tz=-60").body) == ["elsewhere"])
            let viewer = Browser(client)
            try await console.addUser("vic@example.com", role: .viewer)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            #expect(try await viewer.get("/logs").status == .forbidden)
        }
    }
}

/// `GET /api/v1/logs`: the viewer's filters for scripts, strict about its parameters.
@Suite struct LogsAPITests {
    @Test func scriptsReadAndSearchLogsAPageAtATime() async throws {
        let console = try await TestConsole.make()
        let device = try LogViewerTests.seed(console, (1...5).map { LogViewerTests.line("sync E_TIMEOUT \($0)", minutes: Double($0)) }
            + [LogViewerTests.line("printer jam", level: .warning, minutes: 6)])
        let helpdesk = try await APITests().token(console, role: .helpdesk)
        let viewer = try await APITests().token(console, role: .viewer)
        let api = APITests()
        try await console.test { client in
            let first = try await api.call(client, .get, "/api/v1/logs?q=timeout&limit=2", token: helpdesk)
            #expect(first.status == .ok)
            let logs = try #require(first.json["logs"] as? [[String: Any]])
            #expect(logs.map { $0["message"] as? String } == ["sync E_TIMEOUT 5", "sync E_TIMEOUT 4"])
            #expect(logs.first?["deviceID"] as? Int64 == device.rawValue || logs.first?["deviceID"] as? Int == Int(device.rawValue))
            #expect(logs.first?["level"] as? String == "error")
            let next = try #require(first.json["next"] as? String)
            let second = try await api.call(client, .get, next, token: helpdesk)
            #expect((second.json["logs"] as? [[String: Any]])?.map { $0["message"] as? String } == ["sync E_TIMEOUT 3", "sync E_TIMEOUT 2"])

            let bad = try await api.call(client, .get, "/api/v1/logs?q=%22timeout", token: helpdesk)
            #expect(bad.status == .badRequest)
            #expect(api.errorCode(bad.json) == "invalid_search")
            let level = try await api.call(client, .get, "/api/v1/logs?level=loud", token: helpdesk)
            #expect(api.errorCode(level.json) == "invalid_query")
            #expect((level.json["error"] as? [String: Any])?["field"] as? String == "level")
            let forbidden = try await api.call(client, .get, "/api/v1/logs", token: viewer)
            #expect(forbidden.status == .forbidden)
        }
    }
}
