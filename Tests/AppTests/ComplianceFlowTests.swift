@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Compliance end to end: a wipe rule reaching a simulated device, the device falling out of
/// line through the API, and what the console then records and shows.
@Suite struct ComplianceFlowTests {
    let api = APITests()
    let devices = DeviceAPITests()

    @Test func anEnterpriseWipeRemovesManagedAppsKeepsLogsAndIsReportedEverywhere() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let group = try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Notes", bundleID: "com.example.notes", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
            _ = try connection.insert(AppRecord(name: "Chat", bundleID: "com.social.chat", isManaged: false, isSDKBuilt: false,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
            return try connection.insert(DeviceGroupRecord(name: "Ward", parentID: nil, createdAt: Date())).id
        }
        let wipeOldIOS = ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.10", action: .wipe)
        let content = ProfileContent(name: "Ward rules").setting(Payload(Logging(level: .information)))
            .setting(Payload(Compliance(rules: [wipeOldIOS])))
        let profile = try await ProfileStore(database: console.services.database, now: { Date() }).create(identifier: "com.example.ward", content: content, by: .system)
        try console.services.database.writeBlocking { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: group, assignedAt: Date(), assignedBy: "test")) }

        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Ward iPad", supervised: true, group: group, app: "com.example.notes", console: console)
            try console.services.database.writeBlocking { connection in
                var record = try connection.require(DeviceRecord.self, id: device.id)
                record.installedApps = ["com.example.notes", "com.social.chat"]
                try connection.update(record)
            }
            let path = "/api/v1/simulator/\(device.udid)/actions"
            let launched = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.notes"}"#)
            #expect(((launched.json["state"] as? [String: Any])?["compliance"] as? [String: Any])?["state"] as? String == "compliant")
            _ = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "emitLog", "app": "com.example.notes", "level": "error", "message": "before"}"#)
            #expect(try console.services.logs.readBlocking { try $0.count(DeviceLogRecord.query()) } == 1)

            let refused = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "setOSVersion", "version": "seventeen"}"#)
            #expect(refused.status == .unprocessableContent)
            #expect((refused.json["error"] as? [String: Any])?["field"] as? String == "version")

            let updated = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "setOSVersion", "version": "17.9"}"#)
            let state = try #require(updated.json["state"] as? [String: Any])
            #expect((state["compliance"] as? [String: Any])?["state"] as? String == "wiped")
            #expect((state["apps"] as? [[String: Any]])?.compactMap { $0["bundleID"] as? String } == ["com.social.chat"])

            // The console's record follows the device: iOS 17.9, the managed app gone; the log stays.
            let record = try console.services.database.readBlocking { try $0.require(DeviceRecord.self, id: device.id) }
            #expect(record.osVersion == "17.9" && record.installedApps == ["com.social.chat"])
            #expect(try console.services.logs.readBlocking { try $0.count(DeviceLogRecord.query()) } == 1)

            let list = try await api.call(client, .get, "/api/v1/devices", token: helpdesk)
            let listed = try #require((list.json["devices"] as? [[String: Any]])?.first { $0["name"] as? String == "Ward iPad" })
            #expect(listed["compliance"] as? String == "wiped")
            let page = try await admin.get("/devices/\(device.id)")
            #expect(page.body.contains("Wiped (enterprise wipe)") && page.body.contains("iOS earlier than 17.10"))
            let listPage = try await admin.get("/devices")
            #expect(listPage.body.contains(#"<span class="tag tag-danger">Wiped</span>"#))

            // A later sync does not bring the wiped app back from the record.
            let again = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "home"}"#)
            #expect(((again.json["state"] as? [String: Any])?["apps"] as? [[String: Any]])?.count == 1)
        }
    }

    @Test func aRealDeviceReportsItsBeaconThroughTheDeviceAPI() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Field iPhone", supervised: false, group: nil, app: nil, console: console)
            let body = #"{"bundleID": "com.example.sales", "appVersion": "4.1", "osVersion": "17.9", "enrollment": "enrolled", "compliance": "blocked", "complianceReason": "iOS earlier than 17.10"}"#
            let sent = try await api.call(client, .post, "/api/v1/device/beacon", token: device.token, body: body)
            #expect(sent.status == .ok && sent.json["deviceCompliance"] as? String == "blocked")
            let page = try await admin.get("/devices/\(device.id)")
            #expect(page.body.contains("com.example.sales 4.1") && page.body.contains("iOS earlier than 17.10") && page.body.contains("Field iPhone"))

            let refusals: [(String, String)] = [
                (body.replacingOccurrences(of: #""4.1""#, with: #""four""#), "appVersion"),
                (body.replacingOccurrences(of: #""blocked""#, with: #""fine""#), "compliance"),
                (body.replacingOccurrences(of: #""com.example.sales""#, with: #""sales""#), "bundleID"),
                (body.replacingOccurrences(of: "iOS earlier", with: #"iOS\u0007earlier"#), "complianceReason"),
                (body.replacingOccurrences(of: "}", with: #", "extra": 1}"#), "extra"),
            ]
            for (refused, field) in refusals {
                let answer = try await api.call(client, .post, "/api/v1/device/beacon", token: device.token, body: refused)
                #expect(answer.status == .unprocessableContent && (answer.json["error"] as? [String: Any])?["field"] as? String == field, "\(field): \(answer.status) \(answer.json)")
            }
            let anonymous = try await api.call(client, .post, "/api/v1/device/beacon", token: nil, body: body)
            #expect(anonymous.status == .unauthorized)
            let stored = try console.services.database.readBlocking { try $0.fetch(DeviceBeaconRecord.query()) }
            #expect(stored.count == 1 && stored.first?.beacon.appVersion == "4.1", "refusals changed nothing")
        }
    }

    @Test func aRefusedVersionUpdateComesBackBesideItsOwnBox() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Ward iPad", supervised: true, group: nil, app: nil, console: console)
            try await admin.get("/simulator/\(device.id)")
            let refused = try await admin.post("/simulator/\(device.id)/actions", ["action": "setOSVersion", "version": "seventeen"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#"id="os-version" name="version" type="text" inputmode="decimal" size="8" value="seventeen""#), "what was typed stays")
            #expect(refused.body.contains(#"id="os-version-error""#) && !refused.body.contains(#"id="sim-action-error""#))
            let record = try console.services.database.readBlocking { try $0.require(DeviceRecord.self, id: device.id) }
            #expect(record.osVersion == "18.1", "nothing changed")
        }
    }

    @Test func theDevicePageSaysHowStronglySDKDataIsEncrypted() {
        func view(_ payloads: [Payload]) -> PolicyView {
            let source = PolicySource(profileID: 1, profileName: "P", version: 1, groupName: "G", groupDistance: 0)
            return PolicyView(EffectivePolicy.compute(from: [ReachingProfile(source: source, content: payloads.reduce(ProfileContent(name: "P")) { $0.setting($1) })]))
        }
        let passcode = view([Payload(Authentication(type: .passcode))]).settings.last
        #expect(passcode?.name == "Encryption" && passcode?.lines.first?.contains("kept only in memory") == true)
        let disabled = view([Payload(Authentication(type: .disabled)), Payload(Analytics())]).settings.last
        #expect(disabled?.lines.first?.contains("random and stored on the device") == true)
        #expect(!view([Payload(SingleAppMode(appIdentifier: "com.example.kiosk"))]).settings.contains { $0.name == "Encryption" },
                "Apple payloads alone involve no SDK encryption")
    }
}
