@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The impact preview says what the SDK's rules will do to the devices they reach, judged
/// against what each device last reported (issue 24: a compliance rule blocked six kiosks
/// running 2.4.0 that the preview never mentioned).
@Suite struct SDKImpactPreviewTests {
    typealias API = APITests

    func complianceProfile(_ console: TestConsole) async throws -> RecordID<ProfileRecord> {
        let store = console.services.profileStore
        let profile = try await store.create(identifier: "com.example.test.checkin-versions", content: ProfileContent(name: "Check-In versions"), by: .system)
        try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: "Check-In versions", payloads: [
            Payload(Compliance(rules: [ComplianceRule(subject: .app("com.example.checkin"), comparison: .lessThan, version: "2.4.1", action: .block)])),
        ]), note: "", by: .system)
        return profile.id
    }

    func kiosks(_ console: TestConsole) async throws -> (RecordID<DeviceGroupRecord>, [DeviceRecord]) {
        try await console.services.database.read { connection in
            let group = try #require(try connection.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Lobby kiosks")))
            return (group.id, try connection.fetch(DeviceRecord.query().filter("groupID", .equal, group.id)))
        }
    }

    @Test func theKiosksRunningAnOldVersionAreNamedAsBlockedOnThePageAndInTheDryRun() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let profile = try await complianceProfile(console)
        let (group, devices) = try await kiosks(console)
        #expect(devices.count == 6)
        // Kiosk 01's own status beacon says it already runs 2.4.1: the beacon is what it
        // reported, ahead of its older log lines (the demo's kiosks log 2.4.0).
        let first = try #require(devices.first { $0.name == "Lobby kiosk 01" })
        try await console.services.database.write { connection in
            try connection.recordBeacon(StatusBeacon(deviceName: first.name, group: "Lobby kiosks", bundleID: "com.example.checkin", appVersion: "2.4.1",
                                                     osVersion: "18.1", user: "Front desk", enrollment: .enrolled, deviceCompliance: .compliant,
                                                     complianceReason: nil), from: first.id, at: Date())
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            let preview = try await admin.get("/profiles/\(profile)/assignments/preview?groupID=\(group)")
            #expect(preview.status == .ok)
            #expect(preview.body.contains("<strong>5 devices: SDK apps blocked: Lobby Check-In earlier than 2.4.1 (compliance rule, by the last reported version)</strong>: Lobby kiosk 02, Lobby kiosk 03"))
            #expect(!preview.body.contains("Lobby kiosk 01,"), "its beacon reported 2.4.1")

            let token = try await API().token(console, role: .admin)
            let dry = try await API().call(client, .post, "/api/v1/profiles/\(profile)/assignments?dryRun=true", token: token, body: "{\"groupID\": \(group)}")
            let impact = try #require(dry.json["impact"] as? [String: Any])
            let starting = try #require(impact["sdkStarting"] as? [[String: Any]])
            #expect(starting.count == 5)
            #expect(starting.allSatisfy { $0["effect"] as? String == "block" && $0["setting"] as? String == "compliance" })
            #expect(starting.first?["message"] as? String == "SDK apps blocked: Lobby Check-In earlier than 2.4.1 (compliance rule, by the last reported version)")
            #expect((impact["sdkEnding"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aDeviceThatNeverReportedItsVersionIsNotKnown() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let profile = try await complianceProfile(console)
        let (group, _) = try await kiosks(console)
        // No log line, no beacon: nobody knows what the kiosks run.
        try await console.services.logs.write { _ = try $0.execute("DELETE FROM device_logs") }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            let preview = try await admin.get("/profiles/\(profile)/assignments/preview?groupID=\(group)")
            #expect(preview.body.contains("6 devices: Not known whether Lobby Check-In earlier than 2.4.1 would block: the device has not reported Lobby Check-In’s version"))
            #expect(!preview.body.contains("SDK apps blocked"))
        }
    }
}
