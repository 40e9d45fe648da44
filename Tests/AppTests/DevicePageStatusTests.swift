@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// What a helpdesk user reads first on a device page: what policy makes the device do about
/// its lock apart from what it reported, when it should answer what is queued for it, and its
/// newest lines in the order they happened.
@Suite struct DevicePageStatusTests {
    typealias Seed = LogViewerTests

    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ email: String, _ role: Role) async throws -> Browser {
        try await console.addUser(email, role: role)
        let browser = Browser(client)
        try await browser.signIn(email, password: TestConsole.password)
        return browser
    }

    @Test func theTopOfTheDevicePageSaysWhatPolicyMakesTheDeviceDoApartFromWhatItReported() async throws {
        let console = try await TestConsole.make()
        let lobby = try DeviceListTests.group(console, "Lobby kiosks")
        let store = console.services.profileStore
        let profile = try await store.create(identifier: "com.example.kiosk-lock", content: ProfileContent(name: "Kiosk lockdown"), by: .system)
        try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: "Kiosk lockdown", payloads: [
            Payload(SingleAppMode(appIdentifier: "com.example.checkin"))]), note: "", by: .system)
        _ = try await console.services.assignments.assign(profile.id, to: lobby, by: .system)
        let ids = try DeviceListTests.seedDevices(console, ["Lobby kiosk 03", "Loose kiosk"], group: lobby)
        let unsupervised = try DeviceListTests.seedDevices(console, ["Borrowed iPad"], group: lobby, supervised: false)[0]
        let loose = try DeviceListTests.seedDevices(console, ["Kiosk elsewhere"])[0]
        try await console.services.database.write { connection in
            var kiosk = try connection.require(DeviceRecord.self, id: ids[0])
            kiosk.installedApps = ["com.example.checkin"]
            try connection.update(kiosk)
        }
        try await console.test { client in
            let hal = try await signedIn(console, client, "hal@example.com", .helpdesk)
            func lock(_ id: RecordID<DeviceRecord>) async throws -> (policy: String, reported: String) {
                let body = try await hal.get("/devices/\(id)").body
                func cell(_ id: String) -> String {
                    (body.components(separatedBy: "<dd id=\"\(id)\">").dropFirst().first?.components(separatedBy: "</dd>").first ?? "")
                        .replacingOccurrences(of: #"<[^>]+>"#, with: " ", options: .regularExpression)
                }
                // The lock comes first in the device's facts, before model and supervision.
                #expect(body.range(of: "id=\"lock-policy\"")!.lowerBound < body.range(of: "<dt>Model</dt>")!.lowerBound)
                return (cell("lock-policy"), cell("lock-status"))
            }
            let kiosk = try await lock(ids[0])
            #expect(kiosk.policy.contains("Single App Mode in com.example.checkin")
                    && kiosk.policy.contains("The Single App Mode payload of the profile “Kiosk lockdown” (v2) assigned to Lobby kiosks holds it"))
            #expect(kiosk.reported.contains("Not reported") && kiosk.reported.contains("Only simulated devices report their lock"))
            #expect(try await lock(ids[1]).policy.contains("waiting for the app"), "the app is not installed")
            #expect(try await lock(unsupervised).policy.contains("the device is not supervised, so iOS ignores it"))
            #expect(try await lock(loose).policy.contains("It is in no group, so no profile reaches it."))
        }
    }

    @Test func requestingLogsSaysWhenTheDeviceLastCheckedInAndWhenItShouldAnswer() async throws {
        let console = try await TestConsole.make()
        let now = console.clock.now
        let ids = try DeviceListTests.seedDevices(console, ["Recently seen", "Silent for hours", "Never seen"])
        try await console.services.database.write { connection in
            // Devices with a check-in token check in by themselves.
            let checkIns: [(RecordID<DeviceRecord>, Double?)] = [(ids[0], 120), (ids[1], 3 * 3600), (ids[2], nil)]
            for (id, ago) in checkIns {
                var device = try connection.require(DeviceRecord.self, id: id)
                device.lastCheckInAt = ago.map { now.addingTimeInterval(-$0) }
                device.tokenHash = "token-hash-\(id)"
                try connection.update(device)
            }
        }
        try await console.test { client in
            let hal = try await signedIn(console, client, "hal@example.com", .helpdesk)
            func when(_ id: RecordID<DeviceRecord>) async throws -> String {
                let body = try await hal.get("/devices/\(id)").body
                return body.components(separatedBy: "<p class=\"small-text\" id=\"request-logs-when\">").dropFirst().first?.components(separatedBy: "</p>").first ?? ""
            }
            let recent = try await when(ids[0])
            #expect(recent.contains("Last check-in: 2 minutes ago.") && recent.contains("Next check-in expected within 13 minutes (devices check in every 15 minutes)"))
            let silent = try await when(ids[1])
            #expect(silent.contains("Last check-in: 3 hours ago.") && silent.contains("Overdue: a check-in was expected 2 hours ago"))
            #expect(try await when(ids[2]).contains("It has never checked in"))

            // The interval is the console's setting.
            let ada = try await signedIn(console, client, "ada@example.com", .admin)
            _ = try await ada.get("/settings")
            let refused = try await ada.post("/settings", ["logCapMegabytes": "200", "logRetentionDays": "14", "checkInIntervalMinutes": "0"])
            #expect(refused.status == .unprocessableContent && refused.body.contains("id=\"check-in-interval-error\">Enter a whole number of minutes from 1 to 1,440")
                    && refused.body.contains("value=\"0\""))
            #expect(try await ada.post("/settings", ["logCapMegabytes": "200", "logRetentionDays": "14", "checkInIntervalMinutes": "240"]).status == .seeOther)
            #expect(try await when(ids[1]).contains("Next check-in expected within 1 hour (devices check in every 4 hours)"))

            // A simulated device answers while its simulator is open: that is its check-in.
            _ = try await hal.get("/simulator/\(ids[2])")
            let simulated = try await when(ids[2])
            #expect(simulated.contains("Last check-in: just now.") && simulated.contains("checks in through its simulator while the simulator is open"))
            // A device added by hand has no token: only its simulator can answer for it.
            let byHand = try DeviceListTests.seedDevices(console, ["Added by hand"])[0]
            #expect(try await when(byHand).contains("<a href=\"/simulator/\(byHand)\" id=\"answer-in-simulator\">"))
            #expect(simulated.contains("<a href=\"/simulator/\(ids[2])\" id=\"answer-in-simulator\">Open the simulator that will answer</a>"))
        }
    }

    @Test func recentLogsAreNewestFirstByWhenTheyWereLoggedNotWhenTheyArrived() async throws {
        let console = try await TestConsole.make()
        // Uploaded in this order (ids ascending), logged at 10:33, 10:24, 11:36 and 07:24: a
        // backlog and a crash log from the next launch arrive after later lines.
        let device = try Seed.seed(console, [Seed.line("at 10:33", minutes: 633), Seed.line("at 10:24", minutes: 624)])
        _ = try Seed.seed(console, [Seed.line("at 11:36", minutes: 696)])
        _ = try Seed.seed(console, [Seed.line("at 07:24", minutes: 444)])
        // Another device's later line is not this device's.
        _ = try Seed.seed(console, [Seed.line("elsewhere", minutes: 900)], deviceName: "Ward iPad 9")
        try await console.test { client in
            let hal = try await signedIn(console, client, "hal@example.com", .helpdesk)
            let page = try await hal.get("/devices/\(device)")
            let table = try #require(page.body.components(separatedBy: "id=\"recent-log-rows\">").dropFirst().first?.components(separatedBy: "</tbody>").first)
            #expect(Seed.messages(table) == ["at 11:36", "at 10:33", "at 10:24", "at 07:24"])
            #expect(page.body.contains("Newest first by when each line was logged on the device"))
            // The open page asks for what arrives after the last line that arrived, not after the top row.
            let lastArrived = try await console.services.logs.read { try $0.scalar("SELECT max(id) FROM device_logs WHERE deviceName = 'Clinic iPad 3'", as: Int64.self) }
            #expect(page.body.contains("data-newest=\"\(try #require(lastArrived))\""))
        }
    }
}
