@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// "New simulated device": the device and its one-time token are saved in one write; its
/// first check-in comes after, and a failure there must not cost the admin the token.
@Suite struct SimulatorEnrollmentTests {
    @Test func aFailedFirstCheckInStillShowsTheTokenOfTheOneDeviceEnrolled() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        // The simulator's writes fail, while the device's own succeed.
        try RefusedWrites("INSERT", on: "simulator_events").begin(in: console.services.database)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/simulator/new")
            let page = try await admin.post("/simulator", ["name": "Ward iPad", "model": "iPad", "osVersion": "18.1", "supervised": "yes", "groupID": ""])
            #expect(page.status == .ok)
            let token = try #require(page.body.components(separatedBy: #"id="device-token" type="text" readonly value=""#).dropFirst().first?.prefix { $0 != "\"" })
            #expect(page.body.contains("has not checked in yet"))
            let devices = try console.services.database.readBlocking { try $0.fetch(DeviceRecord.query().filter("name", .equal, "Ward iPad")) }
            #expect(devices.count == 1)

            // The token works: the device checks in through the API, as a script playing it would.
            let checkIn = try await APITests().call(client, .get, "/api/v1/device/policy", token: String(token))
            #expect(checkIn.status == .ok)
        }
    }
}
