@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The simulator for a stakeholder at a demo: the tour step it was opened from and the way on,
/// the location it was sent to and what that means, and accessibility buttons named plainly.
@Suite struct SimulatorGuidanceTests {
    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ email: String) async throws -> Browser {
        try await console.addUser(email, role: .helpdesk)
        let browser = Browser(client)
        try await browser.signIn(email, password: TestConsole.password)
        return browser
    }

    func device(_ console: TestConsole, _ name: String) async throws -> RecordID<DeviceRecord> {
        try #require(try await console.services.database.read { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, name)) }).id
    }

    @Test func whileATourRunsTheSimulatorShowsItsStepAndLeadsOnToTheNext() async throws {
        let console = try await TestConsole.make(demo: true)
        let kiosk = try await device(console, "Lobby kiosk 01")
        try await console.test { client in
            let lead = try await signedIn(console, client, "lead@example.com")
            let tour = try await lead.get("/tour")
            #expect(tour.body.contains("href=\"/simulator/\(kiosk)?step=kiosk-home\" id=\"go-kiosk-home\""), "a simulator step names itself")

            let opened = try await lead.get("/simulator/\(kiosk)?step=kiosk-home")
            #expect(opened.body.contains("id=\"tour-step\"") && opened.body.contains("Tour: Lobby kiosk, step 2 of 6"))
            #expect(opened.body.contains("Press Home, as a visitor would.") && opened.body.contains("href=\"/tour#step-kiosk-home\" id=\"tour-back\""))
            // Without the step in the address (after a control reloads it): the first step of this device not done yet.
            #expect(try await lead.get("/simulator/\(kiosk)").body.contains("Tour: Lobby kiosk, step 1 of 6"))

            _ = try await lead.get("/simulator/\(kiosk)?step=kiosk-home")
            let next = try await lead.post("/tour/steps/kiosk-home", ["done": "yes", "then": "next"])
            #expect(next.status == .seeOther && next.location == "/simulator/\(kiosk)?step=kiosk-restart")
            let progress = try await console.services.database.read { try $0.scalar("SELECT doneSteps FROM tour_progress", as: String.self) }
            #expect(progress == "[\"kiosk-home\"]")
            // The last simulator step of the story leads on to a page that is not a simulator.
            _ = try await lead.get("/simulator/\(kiosk)?step=kiosk-crash")
            let onward = try await lead.post("/tour/steps/kiosk-crash", ["done": "yes", "then": "next"])
            #expect(onward.location == Site.Logs.crashGroups(app: "com.example.checkin") + "&tour=kiosk-crashes")
            // Marking from the tour page stays on the tour.
            _ = try await lead.get("/tour")
            #expect(try await lead.post("/tour/steps/kiosk-open", ["done": "yes"]).location == "/tour#step-kiosk-open")
        }
    }

    @Test func withoutARunningTourTheSimulatorShowsNoStep() async throws {
        let console = try await TestConsole.make()
        let ids = try DeviceListTests.seedDevices(console, ["Lobby kiosk 01"])
        try await console.test { client in
            let desk = try await signedIn(console, client, "desk@example.com")
            let page = try await desk.get("/simulator/\(ids[0])?step=kiosk-open")
            #expect(page.status == .ok && !page.body.contains("id=\"tour-step\""), "a console without the demo's stories has no tour")
        }
    }

    @Test func theLocationChosenStaysChosenAndItsMeaningIsBesideTheControl() async throws {
        let console = try await TestConsole.make(demo: true)
        let phone = try await device(console, "Sales iPhone 01")
        try await console.test { client in
            let desk = try await signedIn(console, client, "desk@example.com")
            let first = try await desk.get(Site.Simulator.show.link(phone))
            func options(_ body: String) -> [String] {
                let select = body.components(separatedBy: "id=\"location-preset\"").dropFirst().first?.components(separatedBy: "</select>").first ?? ""
                return Array(select.components(separatedBy: "<option").dropFirst())
            }
            let choices = options(first.body)
            let north = try #require(choices.first { $0.contains("North depot (inside)") })
            let value = try #require(north.components(separatedBy: "value=\"").dropFirst().first?.prefix { $0 != "\"" })
            #expect(try await desk.post(Site.Simulator.act.link(phone), ["action": "setLocation", "preset": String(value)]).status == .seeOther)
            let after = try await desk.get(Site.Simulator.show.link(phone))
            let selected = options(after.body).filter { $0.contains(" selected") }
            #expect(selected.count == 1 && selected.first?.contains("North depot (inside)") == true, "the choice is kept after Go")
            let result = after.body.components(separatedBy: "id=\"location-result\"").dropFirst().first?.components(separatedBy: "</output>").first ?? ""
            #expect(result.contains("inside North depot, so SDK apps open") && result.contains("role=\"status\""))

            let outside = try #require(choices.first { $0.contains("Outside every area") })
            let outsideValue = try #require(outside.components(separatedBy: "value=\"").dropFirst().first?.prefix { $0 != "\"" })
            _ = try await desk.post(Site.Simulator.act.link(phone), ["action": "setLocation", "preset": String(outsideValue)])
            let away = try await desk.get(Site.Simulator.show.link(phone))
            #expect(options(away.body).filter { $0.contains(" selected") }.first?.contains("Outside every area") == true)
            #expect(away.body.contains("the geofence blocks SDK apps here"))
            // Airplane mode stops geofencing wherever the device stands, as its SDK apps act on it.
            _ = try await desk.post(Site.Simulator.act.link(phone), ["action": "setNetwork", "network": "offline"])
            let airplane = try await desk.get(Site.Simulator.show.link(phone))
            #expect(airplane.body.contains("Geofencing stops in airplane mode") && !airplane.body.contains("the geofence blocks SDK apps here"))
            _ = try await desk.post(Site.Simulator.act.link(phone), ["action": "setNetwork", "network": "wifi"])

            _ = try await desk.post(Site.Simulator.act.link(phone), ["action": "setLocation", "preset": ""])
            let off = try await desk.get(Site.Simulator.show.link(phone))
            #expect(options(off.body).filter { $0.contains(" selected") }.first?.contains("Location services off") == true)
            #expect(off.body.contains("Location services off: geofencing stops, so SDK apps open"))
        }
    }

    @Test func accessibilityButtonsAreNamedPlainlyWithoutSingleAppMode() async throws {
        let console = try await TestConsole.make(demo: true)
        let phone = try await device(console, "Sales iPhone 01")
        let kiosk = try await device(console, "Lobby kiosk 01")
        try await console.test { client in
            let desk = try await signedIn(console, client, "desk@example.com")
            let free = try await desk.get(Site.Simulator.show.link(phone)).body
            #expect(free.contains("id=\"accessibility-voiceOver\" aria-pressed=\"false\">VoiceOver</button>"))
            let row = free.components(separatedBy: "aria-label=\"Accessibility\"").dropFirst().first?.components(separatedBy: "</div>").first ?? ""
            #expect(row.contains("VoiceOver") && !row.contains("()") && !row.contains("small-text"), "no empty parentheses, no empty note")
            let locked = try await desk.get(Site.Simulator.show.link(kiosk)).body
            #expect(locked.contains("<span class=\"small-text\">("), "under Single App Mode each button says who decides it")
        }
    }
}
