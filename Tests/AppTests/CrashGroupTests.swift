@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// Crash groups as helpdesk reads them: the same crash at different addresses counts once,
/// with its devices, versions and first and last sighting, and opens to its reports.
@Suite struct CrashGroupTests {
    typealias Seed = LogViewerTests

    static func crash(_ frame: String, version: String, minutes: Double, app: String = "com.example.clinicnotes") -> LogLine {
        LogLine(app: app, appVersion: version, level: .error, kind: .crash, loggedAt: Seed.start.addingTimeInterval(minutes * 60),
                message: "Incident Identifier: 5C1D\nHardware Model: iPad13,1\nException Type: EXC_BAD_ACCESS at \(frame)\nThread 0 crashed")
    }

    /// On PostgreSQL a SELECT whose values all bind in binary runs as a prepared statement,
    /// planned once per connection (`PreparedSelects`); the crash groups' query ran unnamed,
    /// planned at every request, while its "ever" was `Date.distantPast` sent as -infinity.
    @Test func crashGroupsRunAsAPreparedStatementOnPostgreSQL() async throws {
        guard TestBackend.current == .postgres else { return }
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, [Self.crash("0x10a3f", version: "2.3", minutes: 0)], deviceName: "Ward iPad 1")
        // Every crash ever (the page without a window), a window, and "before anything".
        let runs = try await console.services.logs.read { connection in
            try [nil, Seed.start.addingTimeInterval(-3600), Date.distantPast, Date.distantFuture].map { since in
                // How often this connection ran the query as a prepared statement, before and after.
                let executions: SQL = """
                    SELECT CAST(coalesce(sum(generic_plans + custom_plans), 0) AS bigint) FROM pg_prepared_statements
                    WHERE statement LIKE \(since == nil ? "%NOT NULL AND app = $1 GROUP BY app, signature%" : "%loggedAt >= $1 AND app = $2 GROUP BY%")
                    """
                let before = try connection.scalar(executions, as: Int.self) ?? 0
                let groups = try connection.fetch(LogQueries.CrashGroup.self,
                                                  LogQueries.crashGroups(app: "com.example.clinicnotes", since: since, limit: 11, dialect: connection.dialect))
                return (groups: groups.count, prepared: (try connection.scalar(executions, as: Int.self) ?? 0) - before)
            }
        }
        #expect(runs.map(\.groups) == [1, 1, 1, 0])
        #expect(runs.map(\.prepared) == [1, 1, 1, 1], "each ran as a prepared statement")
    }

    @Test func theSameCrashAtDifferentAddressesIsOneGroupWithItsDevicesVersionsAndTimes() async throws {
        let console = try await TestConsole.make()
        _ = try Seed.seed(console, [Self.crash("0x10a3f", version: "2.3", minutes: 0), Self.crash("0x20bb1", version: "2.4", minutes: 30)],
                          deviceName: "Ward iPad 1")
        _ = try Seed.seed(console, [Self.crash("0x3c0de", version: "2.4", minutes: 90), Seed.line("Not a crash", minutes: 100)],
                          deviceName: "Ward iPad 22")
        _ = try Seed.seed(console, [Self.crash("0x1", version: "9.0", minutes: 5, app: "com.example.other")], deviceName: "Lobby")
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let page = try await browser.get("/logs/crashes?app=com.example.clinicnotes")
            #expect(page.status == .ok)
            let rows = page.body.components(separatedBy: "<a class=\"crash-signature\"").dropFirst()
            try #require(rows.count == 1)
            let row = String(rows.first!)
            #expect(row.contains("EXC_BAD_ACCESS at 0x…"))
            #expect(row.contains("<td class=\"number\">3</td><td class=\"number\">2</td>"), "three crashes on two devices")
            #expect(row.contains("<td>2.3, 2.4</td>"))
            #expect(row.contains(DisplayTime.iso(Seed.start)) && row.contains(DisplayTime.iso(Seed.start.addingTimeInterval(90 * 60))))
            #expect(!page.body.contains("com.example.other"), "one app's groups only")

            let every = try await browser.get("/logs/crashes")
            #expect(every.body.components(separatedBy: "<a class=\"crash-signature\"").count == 3)

            // The signature opens the group's reports and nothing else.
            let link = try #require(row.components(separatedBy: "href=\"").dropFirst().first?.components(separatedBy: "\"").first)
            let reports = try await browser.get(link.replacingOccurrences(of: "&amp;", with: "&"))
            #expect(Seed.messages(reports.body).count == 3)
            #expect(reports.body.contains("Crash group: <code>Exception Type: EXC_BAD_ACCESS at 0x…</code>"))
        }
    }

    @Test func aDevicesCrashGroupsKeepTheDeviceFromItsPageAndItsLogs() async throws {
        let console = try await TestConsole.make()
        let ward = try Seed.seed(console, [Self.crash("0x10a3f", version: "2.3", minutes: 0)], deviceName: "Ward iPad 1")
        _ = try Seed.seed(console, [Self.crash("0x20bb1", version: "2.4", minutes: 30), Self.crash("0x1", version: "9.0", minutes: 5, app: "com.example.other")],
                          deviceName: "Ward iPad 22")
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let device = try await browser.get("/devices/\(ward)")
            #expect(device.body.contains("href=\"/logs/crashes?device=\(ward)\" id=\"device-crash-groups\""), "the device page links to its crash groups")
            let logs = try await browser.get("/logs?device=\(ward)")
            #expect(logs.body.contains("href=\"/logs/crashes?device=\(ward)\" id=\"crash-groups-link\""), "the logs' Crash groups keeps the device")
            let appLogs = try await browser.get("/logs?device=\(ward)&app=com.example.clinicnotes")
            #expect(appLogs.body.contains("&amp;device=\(ward)\" id=\"crash-groups-link\"") && appLogs.body.contains("/logs/crashes?app=com"))

            let groups = try await browser.get("/logs/crashes?device=\(ward)")
            let rows = groups.body.components(separatedBy: "<a class=\"crash-signature\"").dropFirst()
            try #require(rows.count == 1, "only this device's crashes")
            #expect(rows.first!.contains("<td class=\"number\">1</td><td class=\"number\">1</td>") && rows.first!.contains("<td>2.3</td>"))
            #expect(groups.body.contains("Device: <strong>Ward iPad 1</strong>") && groups.body.contains("<input type=\"hidden\" name=\"device\" value=\"\(ward)\">"))
            // The group opens this device's reports only, though another device has the same crash.
            let link = try #require(rows.first!.components(separatedBy: "href=\"").dropFirst().first?.components(separatedBy: "\"").first)
            #expect(link.contains("device=\(ward)"))
            #expect(Seed.messages(try await browser.get(link.replacingOccurrences(of: "&amp;", with: "&")).body).count == 1)

            let api = APITests()
            let token = try await api.token(console, role: .helpdesk)
            let answer = try await api.call(client, .get, "/api/v1/logs/crashes?device=\(ward)", token: token)
            let listed = try #require(answer.json["crashGroups"] as? [[String: Any]])
            #expect(listed.count == 1 && (listed.first?["logs"] as? String)?.contains("device=\(ward)") == true)
            #expect(try await api.call(client, .get, "/api/v1/logs/crashes?device=abc", token: token).status == .badRequest)
        }
    }

    @Test func aCrashWithoutAVersionTakesItFromItsReportOrSaysItWasNotReported() async throws {
        let console = try await TestConsole.make()
        let headed = LogLine(app: "com.example.clinicnotes", level: .error, kind: .crash, loggedAt: Seed.start,
                             message: "Process: ClinicNotes [412]\nVersion: 5.2.1 (5210)\nFatal error: Index out of range in Chart.swift line 12")
        let bare = LogLine(app: "com.example.clinicnotes", level: .error, kind: .crash, loggedAt: Seed.start,
                           message: "Exception Type: EXC_CRASH (SIGABRT)\nThread 0 Crashed")
        #expect(headed.appVersion == "5.2.1" && bare.appVersion == "")
        _ = try Seed.seed(console, [headed, bare])
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let page = try await browser.get("/logs/crashes")
            let rows: [String] = Array(page.body.components(separatedBy: "<a class=\"crash-signature\"").dropFirst())
            let fatal = try #require(rows.first { $0.contains("Fatal error: Index out of range in Chart.swift line 12") })
            #expect(fatal.contains("<td>5.2.1</td>"))
            let abort = try #require(rows.first { $0.contains("Exception Type: EXC_CRASH (SIGABRT)") })
            #expect(abort.contains("<td class=\"muted\">version not reported</td>") && !abort.contains("<td>—</td>"))
        }
    }

    @Test func theAppsLogPageLeadsWithItsCrashGroupsAndWarnsNearTheCap() async throws {
        let console = try await TestConsole.make()
        let lines = [Self.crash("0x10a3f", version: "2.3", minutes: 0)] + (0..<8).map { Seed.line(String(repeating: "x", count: 1000), minutes: Double($0)) }
        _ = try Seed.seed(console, lines)
        let percent = lines.map(\.byteCount).reduce(0, +) * 100 / 10_000
        try await console.services.database.write { connection in
            var settings = try ConsoleSettings.load(from: connection)
            settings.logCapBytes = 10_000
            try settings.save(in: connection)
        }
        try await console.test { client in
            let browser = try await Seed().helpdesk(console, client)
            let page = try await browser.get("/logs?app=com.example.clinicnotes")
            #expect(page.body.contains("id=\"app-crash-groups\""))
            #expect(page.body.contains("EXC_BAD_ACCESS at 0x…"))
            #expect(page.body.contains("id=\"cap-warning\""))
            #expect(page.body.contains("of its 9.8 KB of log storage (\(percent)%); at the cap new uploads will be refused."))
            let everyApp = try await browser.get("/logs")
            #expect(!everyApp.body.contains("id=\"app-crash-groups\"") && !everyApp.body.contains("id=\"cap-warning\""))
            let dashboard = try await browser.get("/dashboard")
            #expect(dashboard.body.contains("of its 9.8 KB of log storage (\(percent)%)") && dashboard.body.contains("href=\"/logs?app=com%2Eexample%2Eclinicnotes\""))
            try await console.addUser("vi@example.com", role: .viewer)
            let viewer = Browser(client)
            try await viewer.signIn("vi@example.com", password: TestConsole.password)
            #expect(!(try await viewer.get("/dashboard")).body.contains("log storage"), "viewers do not read logs")
        }
    }

    @Test func viewersCannotSeeCrashGroups() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("vi@example.com", role: .viewer)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("vi@example.com", password: TestConsole.password)
            #expect(try await browser.get("/logs/crashes").status == .forbidden)
        }
    }
}
