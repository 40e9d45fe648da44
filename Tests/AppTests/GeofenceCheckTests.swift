@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// Helpdesk answers "am I outside the geofence?" without an admin: a log line that says where
/// the device was is told what its geofence makes of the place — in the log viewer and on the
/// device's page — and the device's page checks any point typed in, against that device's areas.
@Suite struct GeofenceCheckTests {
    typealias Seed = LogViewerTests

    /// A field sales group whose profile fences its devices into the North depot (1.5 km).
    static func fencedDevice(_ console: TestConsole) async throws -> RecordID<DeviceRecord> {
        let sales = try DeviceListTests.group(console, "Field sales")
        let store = console.services.profileStore
        let profile = try await store.create(identifier: "com.example.sales", content: ProfileContent(name: "Field sales"), by: .system)
        try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: "Field sales", payloads: [
            Payload(Geofence(areas: [Geofence.Area(name: "North depot", latitude: 53.4808, longitude: -2.2426, radiusMeters: 1_500)]))]),
                                    note: "", by: .system)
        _ = try await console.services.assignments.assign(profile.id, to: sales, by: .system)
        let device = try Seed.seed(console, [Seed.line("Geofence: outside every allowed area at 53.4662, -2.2398 (car park)", minutes: 10),
                                             Seed.line("Synced 12 orders", minutes: 20)], deviceName: "Sales iPhone 03")
        try await console.services.database.write { connection in
            var record = try connection.require(DeviceRecord.self, id: device)
            record.groupID = sales
            try connection.update(record)
        }
        return device
    }

    @Test func aLineThatSaysWhereTheDeviceWasIsToldWhatItsGeofenceMakesOfIt() async throws {
        let console = try await TestConsole.make()
        let device = try await Self.fencedDevice(console)
        // A device no geofence reaches logs a place too: nothing to say about it.
        _ = try Seed.seed(console, [Seed.line("Parked at 53.4662, -2.2398", minutes: 30)], deviceName: "Ward iPad 9")
        try await console.test { client in
            let hal = try await Seed().helpdesk(console, client)
            let logs = try await hal.get("/logs").body
            #expect(Seed.messages(logs).contains(
                "Geofence: outside every allowed area at 53.4662, -2.2398 (car park) Geofence: outside, 134 m beyond North depot&#39;s edge"))
            #expect(Seed.messages(logs).contains("Parked at 53.4662, -2.2398"), "no fence, no note")
            #expect(Seed.messages(logs).contains("Synced 12 orders"))
            let page = try await hal.get("/devices/\(device)").body
            #expect(page.contains("<span class=\"geo-note outside\">Geofence: outside, 134 m beyond North depot&#39;s edge</span>"))
            // The page's own question: where the newest line put it, and what that means.
            #expect(page.contains("Its log line of") && page.contains("puts it at 53.4662, -2.2398. <strong class=\"test-result outside\">"
                + "Outside every area: North depot&#39;s edge is 134 m away (1.6 km from its centre; its radius is 1.5 km).</strong>"))
        }
    }

    @Test func theDeviceListTagsTheFencedDeviceItsNewestLinesPutOutside() async throws {
        let console = try await TestConsole.make()
        let outside = try await Self.fencedDevice(console)
        // Another phone of the group, last placed inside the depot (an older line said outside).
        let inside = try Seed.seed(console, [Seed.line("Geofence: outside at 53.4662, -2.2398", minutes: 1),
                                             Seed.line("Arrived at 53.4808, -2.2426", minutes: 2)], deviceName: "Sales iPhone 4")
        let group = try await console.services.database.read { try $0.require(DeviceRecord.self, id: outside).groupID }
        try await console.services.database.write { connection in
            var record = try connection.require(DeviceRecord.self, id: inside)
            record.groupID = group
            try connection.update(record)
        }
        // A device no geofence reaches is never tagged, wherever it says it is.
        _ = try Seed.seed(console, [Seed.line("Parked at 53.4662, -2.2398", minutes: 30)], deviceName: "Ward iPad 9")
        try await console.test { client in
            let hal = try await Seed().helpdesk(console, client)
            let list = try await hal.get("/devices").body
            let rows = list.components(separatedBy: "<tr>").dropFirst()
            func row(_ name: String) -> String { rows.first { $0.contains(">\(name)</a>") } ?? "" }
            #expect(row("Sales iPhone 03").contains(">Outside geofence</span>"))
            #expect(row("Sales iPhone 03").contains("title=\"Its newest line that names a place: Outside every area: North depot&#39;s edge is 134 m away"))
            #expect(!row("Sales iPhone 4").contains("Outside geofence"), "its newest place is inside")
            #expect(!row("Ward iPad 9").contains("Outside geofence"), "no fence, no tag")
            #expect(!row("Sales iPhone 4").isEmpty && !row("Ward iPad 9").isEmpty)
        }
    }

    @Test func helpdeskChecksAPointAgainstTheDevicesAreasAndBadInputIsSaidBesideItsField() async throws {
        let console = try await TestConsole.make()
        let device = try await Self.fencedDevice(console)
        let unfenced = try DeviceListTests.seedDevices(console, ["Loose iPad"])[0]
        try await console.test { client in
            let hal = try await Seed().helpdesk(console, client)
            let inside = try await hal.get("/devices/\(device)?latitude=53.48&longitude=-2.24")
            #expect(inside.status == .ok)
            #expect(inside.body.contains("<p role=\"status\" id=\"geo-answer\"><strong class=\"test-result inside\">Inside North depot, 1.3 km from its edge.</strong></p>"))
            #expect(inside.body.contains("value=\"53.48\"") && inside.body.contains("value=\"-2.24\""), "the point typed stays in its fields")

            let refused = try await hal.get("/devices/\(device)?latitude=north&longitude=200")
            #expect(refused.status == .ok)
            #expect(refused.body.contains("<p class=\"field-error\" id=\"geo-latitude-error\">Type the latitude in decimal degrees, such as 53.4662.</p>"))
            #expect(refused.body.contains("<p class=\"field-error\" id=\"geo-longitude-error\">Longitude runs from −180 to 180 degrees.</p>"))
            #expect(refused.body.contains("aria-describedby=\"geo-latitude-error\"") && refused.body.contains("value=\"north\""))
            #expect(!refused.body.contains("id=\"geo-answer\""))

            // No geofence reaches a device in no group: no question to answer.
            #expect(!(try await hal.get("/devices/\(unfenced)?latitude=1.5&longitude=2.5").body.contains("id=\"geofence-check\"")))
        }
    }
}
