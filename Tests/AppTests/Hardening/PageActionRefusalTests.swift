import Domain
import Foundation
import Hummingbird
import HummingbirdTesting
import Storage
import Testing
@testable import App

/// The small action forms (simulator controls, queue a command, assign a profile) refuse bad
/// input the way every form does: the page again, 422, the typed values kept, the message
/// beside the field — and nothing changed.
@Suite struct PageActionRefusalTests {
    static func insertDevice(_ console: TestConsole) throws -> RecordID<DeviceRecord> {
        try console.services.database.writeBlocking { connection in
            try connection.insert(DeviceRecord(
                name: "Lobby 1", model: .iPad, osVersion: "17.4", serialNumber: "DMPXK2ABCD", udid: "00008101-000A1B2C3D4E5F60",
                isSupervised: true, owner: "", groupID: nil, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil)).id
        }
    }

    @Test func aSimulatorControlWithABadValueShowsThePageAgainWithTheMessageBesideIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("hal@example.com", role: .helpdesk)
        let device = try Self.insertDevice(console)
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            let before = try await desk.get("/simulator/\(device)")
            #expect(before.body.contains(#"name="minutes" type="number" min="1" max="10080" value="60""#))
            let revision = try await console.services.simulator.state(of: device).revision

            let refused = try await desk.post("/simulator/\(device)/actions", ["action": "setLocation", "latitude": "48.2\u{1B}", "longitude": "16.37"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#"id="latitude-error""#))
            #expect(refused.body.contains(#"aria-describedby="latitude-error""#))
            #expect(refused.body.contains(#"value="16.37""#))
            #expect(!refused.body.contains(#"id="longitude-error""#))

            let tooLong = try await desk.post("/simulator/\(device)/actions", ["action": "advanceClock", "minutes": "99999"])
            #expect(tooLong.status == .unprocessableContent)
            #expect(tooLong.body.contains(#"id="advance-minutes-error""#))
            #expect(tooLong.body.contains(#"value="99999""#))

            // A field the page has no box for is named at the top.
            let unknownApp = try await desk.post("/simulator/\(device)/actions", ["action": "launchApp", "app": "not a bundle id"])
            #expect(unknownApp.status == .unprocessableContent)
            #expect(unknownApp.body.contains(#"id="sim-action-error""#))

            await #expect(try console.services.simulator.state(of: device).revision == revision)
            let done = try await desk.post("/simulator/\(device)/actions", ["action": "advanceClock", "minutes": "30"])
            #expect(done.status == .seeOther)
        }
    }

    @Test func aCommandWithABadFieldShowsThePageItCameFromAgainAndQueuesNothing() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("hal@example.com", role: .helpdesk)
        let device = try Self.insertDevice(console)
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            try await desk.get("/devices/\(device)")
            let onDevicePage = try await desk.post("/devices/\(device)/commands", ["requestType": "RequestLogs", "captureMinutes": "2000"])
            #expect(onDevicePage.status == .unprocessableContent)
            #expect(onDevicePage.body.contains(#"id="command-capture-error""#))
            #expect(onDevicePage.body.contains(#"value="2000""#))
            #expect(onDevicePage.body.contains(#"<option value="RequestLogs" selected>"#))
            #expect(onDevicePage.body.contains("<h1>Lobby 1"))

            let fromSimulator = try await desk.post("/devices/\(device)/commands", [
                "requestType": "ManagedApplicationFeedback", "apps": "com.example.mail, bad\u{1}", "back": "/simulator/\(device)",
            ])
            #expect(fromSimulator.status == .unprocessableContent)
            #expect(fromSimulator.body.contains("Simulator: Lobby 1"))
            #expect(fromSimulator.body.contains(#"id="command-apps-error""#))

            let unknown = try await desk.post("/devices/\(device)/commands", ["requestType": "FormatDisk"])
            #expect(unknown.status == .unprocessableContent)
            #expect(unknown.body.contains(#"id="command-type-error""#))
            // Erasing is an admin's, whatever the device.
            try await desk.get("/devices/\(device)")
            #expect(try await desk.post("/devices/\(device)/commands", ["requestType": "EraseDevice"]).status == .forbidden)

            let queued = try console.services.database.readBlocking { try $0.count(DeviceCommandRecord.query()) }
            #expect(queued == 0)
        }
    }

    @Test func assigningToAGroupThatDoesNotExistShowsTheProfileAgain() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        _ = try console.services.database.writeBlocking {
            try $0.insert(DeviceGroupRecord(name: "Lobby kiosks", parentID: nil, createdAt: Date()))
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            let created = try await admin.post("/profiles", ["name": "Lobby kiosk", "identifier": "", "description": ""])
            let profile = try #require(created.location)
            for groupID in ["0", "-1", "999", ""] {
                try await admin.get(profile)
                let refused = try await admin.post("\(profile)/assignments", ["groupID": groupID])
                #expect(refused.status == .unprocessableContent, "\(groupID)")
                #expect(refused.body.contains(#"id="assign-group-error""#), "\(groupID)")
            }
            let assignments = try console.services.database.readBlocking { try $0.count(ProfileAssignmentRecord.query()) }
            #expect(assignments == 0)
        }
    }
}
