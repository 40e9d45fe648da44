@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// The demo's stories as a stakeholder walks them: every simulator step of the tour, done on a
/// fresh `--demo` console, ends on the rule the tour says it will; the history the other steps
/// point at is there to be found; and a second demo start adds nothing twice.
@Suite struct DemoStoryTests {
    @Test(arguments: DemoStory.all.map(\.id))
    func everySimulatorStepEndsOnTheRuleTheTourNames(story id: String) async throws {
        let console = try await TestConsole.make(demo: true)
        let story = try #require(DemoStory.all.first { $0.id == id })
        let devices = try await console.services.database.read { try $0.fetch(DeviceRecord.query()) }
        for step in story.steps {
            guard case .simulator(let name) = step.target, let rule = step.rule else { continue }
            let device = try #require(devices.first { $0.name == name }, "\(step.id): the demo has \(name)")
            let rules: [String]
            if step.actions.isEmpty {
                let (_, state) = try await console.services.simulator.sync(device.id)
                let events = try await console.services.database.read {
                    try $0.fetch(SimulatorEventRecord.query().filter("deviceID", .equal, state.deviceID).order(by: "id"))
                }
                rules = events.map(\.rule)
            } else {
                var outcomes: [SimulatorOutcome] = []
                for action in step.actions { outcomes.append(try await console.services.simulator.perform(action, on: device.id).0) }
                rules = [outcomes.last!.event.rule]
                #expect(outcomes.dropLast().allSatisfy { $0.event.result == .done }, "\(step.id): the steps before the last all work")
            }
            #expect(rules.contains(rule), "\(step.id): the timeline names “\(rule)”, not \(rules)")
        }
    }

    @Test func theKioskStaysInItsAppAndTheStudentsOwnIPadLocksOnlyForAnAssessment() async throws {
        let console = try await TestConsole.make(demo: true)
        let devices = try await console.services.database.read { try $0.fetch(DeviceRecord.query()) }
        let kiosk = try #require(devices.first { $0.name == "Lobby kiosk 01" })
        let (_, state) = try await console.services.simulator.sync(kiosk.id)
        #expect(state.state.lock == .singleAppMode(app: "com.example.checkin"))
        let student = try #require(devices.first { $0.name == "Student iPad (own)" })
        #expect(!student.isSupervised && student.installedApps.contains("com.example.exam"))
    }

    @Test func theSimulatorOffersTheDevicesOwnGeofenceAreasAndAPointOutsideInItsOwnShape() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("desk@example.com", role: .helpdesk)
        let devices = try await console.services.database.read { try $0.fetch(DeviceRecord.query()) }
        let phone = try #require(devices.first { $0.name == "Sales iPhone 01" })
        let kiosk = try #require(devices.first { $0.name == "Lobby kiosk 01" })
        // An app on screen, so the copy and log boxes show.
        _ = try await console.services.simulator.perform(.launchApp("com.example.mail"), on: phone.id)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("desk@example.com", password: TestConsole.password)
            let sales = try await browser.get(Site.Simulator.show.link(phone.id)).body
            let options = sales.components(separatedBy: "id=\"location-preset\"").dropFirst().first?.components(separatedBy: "</select>").first ?? ""
            let labels = options.components(separatedBy: "</option>").dropLast().map { $0.components(separatedBy: ">").last ?? "" }
            #expect(labels == ["Head office (inside)", "North depot (inside)", "South depot (inside)", "Outside every area (2 km from Head office)",
                               "Location services off"])
            #expect(sales.contains("class=\"device-frame iphone\""))
            #expect(sales.contains("value=\"Order 1042: 12 boxes for Harbour Café\""), "the copy box speaks the story's language")
            let lobby = try await browser.get(Site.Simulator.show.link(kiosk.id)).body
            #expect(!lobby.contains("(inside)"), "no geofence reaches the kiosk: no areas to stand in")
            #expect(lobby.contains("class=\"device-frame ipad\""))
        }
    }

    @Test func theHistoryHasTheIncidentsTheTourPointsAt() async throws {
        let console = try await TestConsole.make(demo: true)
        let (groups, _, _) = try await console.services.logReader.crashGroups(app: "com.example.checkin", device: nil, since: nil, limit: 10)
        let badge = try #require(groups.first, "Lobby Check-In has crash groups")
        #expect(badge.signature == "Exception Type: EXC_BAD_ACCESS (SIGSEGV) in BadgePrinter.flush()", "the newest group is the badge printer's")
        #expect(badge.versions == "2.4.0", "it started with 2.4.0")
        #expect(badge.devices == 4)
        #expect(groups.count == 2, "and an older, rarer crash of 2.3.2")

        try await console.services.logIndexer.catchUp()
        #expect(try await console.linesFound(searching: "geofence") >= 8, "the geofence complaint is findable by text")
        try await console.services.logs.read { connection in
            let levels = try connection.rows("SELECT DISTINCT level FROM device_logs").map { try $0.get("level", as: String.self) }
            #expect(Set(levels) == ["error", "warning", "information"], "mixed levels, as each group's logging keeps them")
            let span = try connection.rows("SELECT min(loggedAt) AS first, max(loggedAt) AS last FROM device_logs").first!
            #expect(try span.get("last", as: Double.self) - span.get("first", as: Double.self) > 12 * 86_400, "two weeks of logs")
        }
        try await console.services.database.read { connection in
            let versions = try connection.fetch(ProfileVersionRecord.query().order(by: "id"))
            #expect(versions.count >= 12, "profiles grew over several versions")
            let feedback = try connection.count(AppFeedbackRecord.query().filter("app", .equal, "com.example.fieldsales"))
            #expect(feedback >= 13, "a fortnight of feedback with a trend")
            #expect(try connection.count(DeviceNoteRecord.query()) == 2)
            let waiting = try connection.count(DeviceCommandRecord.query().filter("status", .equal, "queued"))
            #expect(waiting == 2, "two quiet devices have commands waiting")
        }
    }

    /// The crash a stakeholder causes in the kiosk story is of the version the fleet runs, so
    /// its crash group sits beside the badge printer's under 2.4.0, not under a 1.0 of its own.
    @Test func aSimulatorStartsItsAppsAtTheVersionsTheDevicesLogsReport() async throws {
        let console = try await TestConsole.make(demo: true)
        let kiosk = try #require(try await console.services.database.read { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Lobby kiosk 01")) })
        let state = try await console.services.simulator.state(of: kiosk.id).state
        #expect(state.version(of: "com.example.checkin") == "2.4.0")
        _ = try await console.services.simulator.perform(.crash(app: "com.example.checkin"), on: kiosk.id)
        let crash = try await console.services.logs.read {
            try $0.scalar("SELECT appVersion FROM device_logs WHERE deviceID = \(kiosk.id) AND kind = 'crash' ORDER BY id DESC LIMIT 1", as: String.self)
        }
        #expect(crash == "2.4.0")
        // A device without a line from an app starts that app at the simulator's own version.
        let loose = try DeviceListTests.seedDevices(console, ["Loose iPad"])[0]
        #expect(try await console.services.simulator.state(of: loose).state.version(of: "com.example.checkin") == SimulatedDevice.defaultAppVersion)
    }

    /// The simulated clock runs with time: two presses ten minutes apart are stamped ten minutes
    /// apart, and "Advance clock" adds to it rather than being the only way it moves.
    @Test func theSimulatedClockRunsBetweenPresses() async throws {
        let console = try await TestConsole.make()
        let device = try DeviceListTests.seedDevices(console, ["Desk iPad"])[0]
        let simulator = console.services.simulator
        _ = try await simulator.perform(.home, on: device)
        console.clock.advance(by: 600)
        _ = try await simulator.perform(.home, on: device)
        _ = try await simulator.perform(.advanceClock(minutes: 60), on: device)
        console.clock.advance(by: 30)
        _ = try await simulator.perform(.home, on: device)
        let times = try await console.services.database.read {
            try $0.fetch(SimulatorEventRecord.query().filter("deviceID", .equal, device).filter("action", .equal, "Home").order(by: "id"))
        }.map(\.deviceTime)
        #expect(times.count == 3)
        #expect(times[1].timeIntervalSince(times[0]) == 600)
        #expect(times[2].timeIntervalSince(times[1]) == 3_600 + 30)
    }

    @Test func aSecondDemoStartAddsNothingTwice() async throws {
        let console = try await TestConsole.make(demo: true)
        func counts() async throws -> [Int] {
            try await console.services.database.read { connection in
                try ["devices", "profiles", "profile_versions", "app_feedback", "device_notes", "device_commands", "audit_events"]
                    .map { try connection.scalar("SELECT count(*) FROM \(identifier: $0)", as: Int.self) ?? 0 }
            } + console.services.logs.read { [try $0.scalar("SELECT count(*) FROM device_logs", as: Int.self) ?? 0] }
        }
        let before = try await counts()
        #expect(try await DemoData.seedIfEmpty(database: console.services.database, logs: console.services.logs, now: console.services.now) == false)
        #expect(try await counts() == before)
    }
}

/// Assessment mode's restrictions are part of the device's state only while the app holds it.
@Suite struct AssessmentStateTests {
    @Test func whatAnAssessmentTurnsOffIsInTheStateWhileLockedAndGoneAfter() async throws {
        let console = try await TestConsole.make(demo: true)
        let token = try await APITests().token(console, role: .helpdesk)
        let student = try #require(try await console.services.database.read {
            try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Student iPad (own)"))
        })
        try await console.test { client in
            let api = APITests()
            let path = "/api/v1/simulator/\(student.udid)/actions"
            _ = try await api.call(client, .post, path, token: token, body: #"{"action": "launchApp", "app": "com.example.exam"}"#)
            let locked = try await api.call(client, .post, path, token: token,
                                            body: #"{"action": "requestLock", "app": "com.example.exam", "mode": "assessment", "confirm": true}"#)
            let turnedOff = (locked.json["state"] as? [String: Any])?["turnedOff"] as? [String]
            #expect(turnedOff?.contains("Dictation") == true && turnedOff?.contains("Siri") == true)
            #expect(turnedOff?.contains { $0.localizedCaseInsensitiveContains("keyboard extension") } == false,
                    "third-party keyboards are the app's own business")
            let unlocked = try await api.call(client, .post, path, token: token, body: #"{"action": "requestUnlock", "app": "com.example.exam"}"#)
            #expect((unlocked.json["state"] as? [String: Any])?["turnedOff"] as? [String] == [])
        }
    }
}
