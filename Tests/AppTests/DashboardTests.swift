@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The dashboard as people first see it: the health strip counts what its links list, the
/// demo's stories open their simulators, the activity feed reads as changes rather than
/// sign-ins, and a demo start opens the tour once.
@Suite struct DashboardTests {
    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ email: String, _ role: Role) async throws -> (Browser, DashboardTests.Page) {
        try await console.addUser(email, role: role)
        let browser = Browser(client)
        let landed = try await browser.signIn(email, password: TestConsole.password)
        return (browser, Page(location: landed.location))
    }

    struct Page {
        let location: String?
    }

    /// The health strip's items as (text, href), in order.
    static func health(_ body: String) -> [(text: String, href: String)] {
        guard let strip = body.components(separatedBy: "id=\"fleet-health\"").dropFirst().first?.components(separatedBy: "</ul>").first else { return [] }
        return strip.components(separatedBy: "<a href=\"").dropFirst().map { item in
            let href = String(item.prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            let text = item.components(separatedBy: "\">").dropFirst().first?.components(separatedBy: "</a>").first ?? ""
            return (text, href)
        }
    }

    @Test func eachHealthFigureCountsWhatItsLinkLists() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let (admin, _) = try await signedIn(console, client, "lead@example.com", .admin)
            let strip = Self.health(try await admin.get("/dashboard").body)
            #expect(strip.map(\.text) == ["No policy conflicts", "2 devices with installs or requests waiting", "3 devices not checked in for 24 hours",
                                          "No real device out of step", "1 crash group in the last day", "Log storage has room"])
            for (text, href) in strip where href.hasPrefix("/devices?") {
                let list = try await admin.get(href)
                #expect(list.status == .ok)
                let count = text.hasPrefix("No ") ? 0 : Int(text.prefix { $0.isNumber }) ?? -1
                #expect(list.body.contains(">\(DeviceListController.countText(count, filtered: true))<"), "\(text) lists \(count) at \(href)")
            }
            let crashes = try await admin.get(strip[4].href)
            #expect(crashes.body.components(separatedBy: "<a class=\"crash-signature\"").count == 2, "one group crashed in the last day")
            #expect(crashes.body.contains("BadgePrinter.flush()"))

            // A conflict appears in the strip as soon as two Single App Mode apps reach a group.
            let groups = try await console.services.database.read { try $0.fetch(DeviceGroupRecord.query()) }
            let exams = try #require(groups.first { $0.name == "Exam iPads" })
            let store = console.services.profileStore
            let profile = try await store.create(identifier: "com.example.second-lock", content: ProfileContent(name: "Second lock"), by: .system)
            try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: "Second lock", payloads: [
                Payload(SingleAppMode(appIdentifier: "com.example.quiz"))]), note: "", by: .system)
            let kiosk = try await store.create(identifier: "com.example.first-lock", content: ProfileContent(name: "First lock"), by: .system)
            try await store.saveVersion(of: kiosk.id, basedOn: 1, content: ProfileContent(name: "First lock", payloads: [
                Payload(SingleAppMode(appIdentifier: "com.example.exam"))]), note: "", by: .system)
            for id in [profile.id, kiosk.id] { _ = try await console.services.assignments.assign(id, to: exams.id, by: .system) }
            let conflict = Self.health(try await admin.get("/dashboard").body)[0]
            #expect(conflict.text == "17 devices in a policy conflict")
            #expect(try await admin.get(conflict.href).body.contains(">17 devices match<"))
        }
    }

    @Test func viewersSeeTheFleetButNotTheLogSignals() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let (viewer, _) = try await signedIn(console, client, "reader@example.com", .viewer)
            let texts = Self.health(try await viewer.get("/dashboard").body).map(\.text)
            #expect(texts.count == 4 && !texts.contains { $0.contains("crash") || $0.contains("Log storage") })
        }
    }

    @Test func storyTilesOpenTheirSimulatorsAndTheirGroupsDevices() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let (helpdesk, _) = try await signedIn(console, client, "desk@example.com", .helpdesk)
            let body = try await helpdesk.get("/dashboard").body
            for story in DemoStory.all { #expect(body.contains("id=\"story-\(story.id)\""), "a tile for \(story.title)") }
            let devices = try await console.services.database.read { try $0.fetch(DeviceRecord.query()) }
            let student = try #require(devices.first { $0.name == "Student iPad (own)" })
            #expect(body.contains("href=\"\(Site.Simulator.show.link(student.id))\">Open simulator: Student iPad (own)</a>"))
            let simulator = try await helpdesk.get(Site.Simulator.show.link(student.id))
            #expect(simulator.status == .ok && simulator.body.contains("not supervised"))
            #expect(body.contains(">Exam iPads</a>: 17 devices"))

            // An admin who turns the stories off gets the plain dashboard.
            var settings = try await console.services.database.read { try ConsoleSettings.load(from: $0) }
            settings.showsDemoStories = false
            try await console.services.settings.save(settings, by: .system)
            #expect(!(try await helpdesk.get("/dashboard")).body.contains("story-tile"))
        }
    }

    @Test func theActivityFeedGroupsRunsAndLeavesOutSignIns() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let (admin, _) = try await signedIn(console, client, "lead@example.com", .admin)
            for name in ["Ward 1", "Ward 2", "Ward 3", "Ward 4", "Ward 5"] {
                _ = try await console.services.catalog.addGroup(GroupDraft(name: name), parentID: nil, by: Actor(userID: nil, email: "lead@example.com"))
            }
            let body = try await admin.get("/dashboard").body
            let feed = try #require(body.components(separatedBy: "id=\"activity\"").dropFirst().first?.components(separatedBy: "</ul>").first)
            #expect(feed.contains("added 5 groups: <span class=\"subject\">Ward 5, Ward 4, Ward 3 and 2 more</span>"))
            #expect(!feed.contains("signed in"), "sign-ins stay in the audit log")
            #expect(feed.contains("added the user"), "the account the test made is a change of its own")
        }
    }

    @Test func groupedWordingCountsItsObject() {
        #expect(ActivityFeed.plural("added the device", 12) == "added 12 devices")
        #expect(ActivityFeed.plural("created the API token", 2) == "created 2 API tokens")
        #expect(ActivityFeed.plural("saved a new version of", 3) == "saved 3 new versions of")
        #expect(ActivityFeed.plural("queued a command for", 4) == "queued 4 commands for")
        #expect(ActivityFeed.plural("changed the role of", 2) == "changed the role of (2 times)")
        #expect(ActivityFeed.plural("deleted log lines:", 2) == "deleted log lines: (2 times)")
    }

    @Test func aDemoStartOpensTheTourAtTheFirstSignInOnly() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let (first, landed) = try await signedIn(console, client, "new@example.com", .helpdesk)
            #expect(landed.location == "/tour")
            let tour = try await first.get("/tour")
            #expect(tour.body.contains("0 of \(DemoStory.all.reduce(0) { $0 + $1.steps.count }) steps done"))
            let again = Browser(client)
            #expect(try await again.signIn("new@example.com", password: TestConsole.password).location == "/dashboard")
            // Somewhere else to go is honoured even the first time.
            try await console.addUser("other@example.com", role: .viewer)
            let other = Browser(client)
            try await other.get("/sign-in?next=%2Fdevices")
            #expect(try await other.post("/sign-in", ["email": "other@example.com", "password": TestConsole.password, "next": "/devices"]).location == "/devices")
        }
    }

    @Test func aConsoleWithoutDemoDataLandsOnTheDashboard() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let (_, landed) = try await signedIn(console, client, "lead@example.com", .admin)
            #expect(landed.location == "/dashboard")
        }
    }

    @Test func tourProgressIsEachPersonsOwn() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let (helpdesk, _) = try await signedIn(console, client, "desk@example.com", .helpdesk)
            try await helpdesk.get("/tour")
            let marked = try await helpdesk.post("/tour/steps/kiosk-home", ["done": "yes"])
            #expect(marked.status == .seeOther && marked.location == "/tour#step-kiosk-home")
            let tour = try await helpdesk.get("/tour")
            #expect(tour.body.contains("1 of ") && tour.body.contains("id=\"step-kiosk-home\" class=\"tour-step done\""))
            #expect(try await helpdesk.post("/tour/steps/no-such-step", ["done": "yes"]).status == .notFound)
            #expect(try await helpdesk.post("/tour/steps/kiosk-home", ["done": "yes"], csrf: "forged").status == .forbidden)

            let (viewer, _) = try await signedIn(console, client, "reader@example.com", .viewer)
            let theirs = try await viewer.get("/tour")
            #expect(theirs.body.contains("0 of "), "progress is per person")
            #expect(theirs.body.contains("5 more steps of this story act in the simulator or read logs: a helpdesk or admin account can follow them."),
                    "a viewer is offered the steps they can do, and told how many need more access")
            #expect(!theirs.body.contains("id=\"step-kiosk-home\""), "a press they may not make is not asked of them")
            #expect(!theirs.body.contains("id=\"go-kiosk-crashes\""), "and gets no link to logs they cannot read")
            #expect(theirs.body.contains("id=\"go-kiosk-history\""), "but may read the profile's history")

            try await helpdesk.get("/tour")
            try await helpdesk.post("/tour/steps/kiosk-home", ["done": "no"])
            #expect(try await helpdesk.get("/tour").body.contains("0 of "))
        }
    }
}
