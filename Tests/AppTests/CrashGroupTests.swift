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
