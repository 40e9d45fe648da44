@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The tour as one guided path: every page a step opens shows that step with the way on, the
/// navigation leads to it on a demo console, a story starts again from a known state, and each
/// role is led only through steps it can do.
@Suite struct TourPathTests {
    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ email: String, _ role: Role) async throws -> Browser {
        try await console.addUser(email, role: role)
        let browser = Browser(client)
        try await browser.signIn(email, password: TestConsole.password)
        return browser
    }

    @Test func everyPageAStepOpensShowsTheStepAndTheWayOn() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.test { client in
            let desk = try await signedIn(console, client, "desk@example.com", .helpdesk)
            let tour = try await desk.get("/tour").body
            #expect(tour.contains("<a href=\"/tour\" aria-current=\"page\">Tour</a>"), "the navigation leads to the tour")
            // Each step's link, followed: the page it opens names the step, whatever page it is.
            let links = tour.components(separatedBy: "class=\"tour-instruction\"><a href=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
            #expect(links.count == DemoStory.all.reduce(0) { $0 + $1.steps.count })
            for link in links {
                let page = try await desk.get(link.replacingOccurrences(of: "&amp;", with: "&"))
                #expect(page.status == .ok, "\(link)")
                #expect(page.body.contains("id=\"tour-step\"") && page.body.contains("id=\"tour-next-step\""), "\(link) shows its step")
            }
            let logs = try await desk.get("/logs?app=com.example.fieldsales&q=geofence&tour=sales-complaint").body
            #expect(logs.contains("Tour: Field sales, step 3 of 5") && logs.contains("Search Field Sales&#39; logs for “geofence”."))
            // A page opened without a step's link, or with a step that does not exist, shows none.
            #expect(!(try await desk.get("/logs").body.contains("id=\"tour-step\"")))
            #expect(!(try await desk.get("/logs?tour=no-such-step").body.contains("id=\"tour-step\"")))
            // Done — next step goes on from a page that is not a simulator as from one that is.
            let next = try await desk.post("/tour/steps/sales-complaint", ["done": "yes", "then": "next"])
            #expect(next.location?.hasSuffix("?tour=sales-note") == true)
        }
        let plain = try await TestConsole.make()
        try await plain.test { client in
            let admin = try await signedIn(plain, client, "admin@example.com", .admin)
            #expect(!(try await admin.get("/dashboard").body.contains(">Tour</a>")), "a console without the demo has no tour in its navigation")
        }
    }

    @Test func aViewerIsLedOnlyThroughStepsAViewerCanDo() async throws {
        let console = try await TestConsole.make(demo: true)
        let kiosk = try #require(try await console.services.database.read { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Lobby kiosk 01")) }).id
        try await console.test { client in
            let viewer = try await signedIn(console, client, "reader@example.com", .viewer)
            _ = try await viewer.get("/tour")
            // The simulator's own banner would ask for presses a viewer may not make: none.
            #expect(!(try await viewer.get("/simulator/\(kiosk)?step=kiosk-home").body.contains("id=\"tour-step\"")))
            #expect(!(try await viewer.get("/devices/\(kiosk)?tour=kiosk-crashes").body.contains("id=\"tour-step\"")))
            #expect(try await viewer.get("/devices/\(kiosk)?tour=sales-note").body.contains("id=\"tour-step\""))
            // Done — next step passes over what the role cannot do: from the kiosk's history
            // (its story's last step) to the next story's first step a viewer can do.
            _ = try await viewer.get("/tour")
            let next = try await viewer.post("/tour/steps/kiosk-history", ["done": "yes", "then": "next"])
            let firstForViewers = try #require(TourGuide.steps.first { $0.story.id != "kiosk" && Role.viewer.includes($0.step.target.role) })
            #expect(next.location?.contains("tour=\(firstForViewers.step.id)") == true || next.location == "/tour")
        }
    }

    @Test func aStoryStartsAgainFromAKnownState() async throws {
        let console = try await TestConsole.make(demo: true)
        let kiosk = try #require(try await console.services.database.read { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Lobby kiosk 01")) }).id
        try await console.test { client in
            let desk = try await signedIn(console, client, "desk@example.com", .helpdesk)
            _ = try await desk.get("/simulator/\(kiosk)?step=kiosk-home")
            _ = try await desk.post("/simulator/\(kiosk)/actions", ["action": "home"])
            _ = try await desk.post("/tour/steps/kiosk-home", ["done": "yes"])
            _ = try await desk.post("/tour/steps/sales-note", ["done": "yes"])
            let events = { try await console.services.database.read { try $0.scalar("SELECT count(*) FROM simulator_events WHERE deviceID = \(kiosk)", as: Int.self) } }
            #expect(try await events() ?? 0 >= 2, "the policy applied and Home pressed")

            _ = try await desk.get("/tour")
            let restarted = try await desk.post("/tour/stories/kiosk/restart", [:])
            #expect(restarted.status == .seeOther && restarted.location == "/tour#story-kiosk")
            let tour = try await desk.get("/tour").body
            #expect(tour.contains("Lobby kiosk starts again: its steps are undone and its simulated devices are as the demo made them."))
            #expect(!tour.contains("id=\"step-kiosk-home\" class=\"tour-step done\""))
            #expect(tour.contains("id=\"step-sales-note\" class=\"tour-step done\""), "another story's progress stays")
            #expect(try await events() == 0, "the kiosk's timeline starts again")
            // Step 1's promise holds again: the timeline's first line is the policy applied.
            let page = try await desk.get("/simulator/\(kiosk)?step=kiosk-open").body
            #expect(page.contains("Policy from the console") && !page.contains("<strong>Home</strong>"))
            let audited = try await console.services.database.read {
                try $0.scalar("SELECT count(*) FROM audit_events WHERE action = 'device.demo_story_restarted' AND subject = 'Lobby kiosk'", as: Int.self)
            }
            #expect(audited == 1)

            // A viewer starts their own steps again and touches no device.
            let viewer = try await signedIn(console, client, "reader@example.com", .viewer)
            _ = try await desk.post("/simulator/\(kiosk)/actions", ["action": "home"])
            let before = try await events()
            _ = try await viewer.get("/tour")
            _ = try await viewer.post("/tour/stories/kiosk/restart", [:])
            #expect(try await events() == before)
            #expect(try await viewer.post("/tour/stories/no-such-story/restart", [:]).status == .notFound)
            #expect(try await viewer.post("/tour/stories/kiosk/restart", [:], csrf: "forged").status == .forbidden)
        }
    }
}
