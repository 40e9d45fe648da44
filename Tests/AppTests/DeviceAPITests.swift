@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// The device side: enrollment, check-in with ETags, the command channel, the simulator API.
@Suite struct DeviceAPITests {
    let api = APITests()

    struct Enrolled {
        let id: RecordID<DeviceRecord>
        let udid: String
        let token: String
    }

    /// Enrolls through the page, as an admin would, and reads the one-time token off it.
    func enroll(_ admin: Browser, name: String, supervised: Bool, group: RecordID<DeviceGroupRecord>?, app: String?, console: TestConsole) async throws -> Enrolled {
        try await admin.get("/simulator/new")
        var fields = ["name": name, "model": "iPad", "osVersion": "18.1", "supervised": supervised ? "yes" : "no",
                      "groupID": group?.description ?? ""]
        if let app { fields["installedApps"] = app }
        let page = try await admin.post("/simulator", fields)
        #expect(page.status == .ok)
        let token = try #require(page.body.components(separatedBy: #"id="device-token" type="text" readonly value=""#).dropFirst().first?.prefix { $0 != "\"" })
        let device = try #require(try console.services.database.readBlocking { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, name)) })
        return Enrolled(id: device.id, udid: device.udid, token: String(token))
    }

    func setUp(_ console: TestConsole) async throws -> (group: RecordID<DeviceGroupRecord>, profile: RecordID<ProfileRecord>) {
        let group = try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Check-in", bundleID: "com.example.checkin", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
            return try connection.insert(DeviceGroupRecord(name: "Lobby kiosks", parentID: nil, createdAt: Date())).id
        }
        let profile = try await ProfileStore(database: console.services.database, now: { Date() }).create(
            identifier: "com.example.lobby",
            content: ProfileContent(name: "Lobby").setting(Payload(SingleAppMode(appIdentifier: "com.example.checkin"))),
            by: .system)
        return (group, profile.id)
    }

    @Test func checkInAnswersTheEffectivePolicyWithAnETagAnd304WhileUnchanged() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let (group, profile) = try await setUp(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            #expect(device.token.hasPrefix("pcd_"))

            let empty = try await api.call(client, .get, "/api/v1/device/policy", token: device.token)
            #expect(empty.status == .ok)
            #expect((empty.json["payloads"] as? [Any])?.isEmpty == true)
            let emptyTag = try #require(empty.headers[.eTag])
            let unchanged = try await api.call(client, .get, "/api/v1/device/policy", token: device.token, headers: [.ifNoneMatch: emptyTag])
            #expect(unchanged.status == .notModified)

            try console.services.database.writeBlocking { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test")) }
            let changed = try await api.call(client, .get, "/api/v1/device/policy", token: device.token, headers: [.ifNoneMatch: emptyTag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != emptyTag)
            let payload = try #require((changed.json["payloads"] as? [[String: Any]])?.first)
            #expect(payload["PayloadType"] as? String == "com.apple.app.lock")
            #expect((payload["App"] as? [String: Any])?["Identifier"] as? String == "com.example.checkin")

            let mobileconfig = try await client.execute(uri: "/api/v1/device/policy.mobileconfig", method: .get,
                                                        headers: [.authorization: "Bearer \(device.token)"])
            #expect(mobileconfig.headers[.contentType] == "application/x-apple-aspen-config")
            #expect(String(buffer: mobileconfig.body).contains("<string>com.apple.app.lock</string>"))
            // Naming the organisation changes the profile a device installs, so its tag moves too.
            var settings = try await console.services.database.read { try ConsoleSettings.load(from: $0) }
            settings.organisationName = "Example Health Trust"
            try await console.services.settings.save(settings, by: .system)
            let renamed = try await client.execute(uri: "/api/v1/device/policy.mobileconfig", method: .get,
                                                   headers: [.authorization: "Bearer \(device.token)", .ifNoneMatch: mobileconfig.headers[.eTag]!])
            #expect(renamed.status == .ok && String(buffer: renamed.body).contains("<string>Example Health Trust</string>"))

            // Deleting the profile cascades to its assignment, and that too moves the tag.
            try console.services.database.writeBlocking { try $0.delete(ProfileRecord.self, id: profile) }
            let gone = try await api.call(client, .get, "/api/v1/device/policy", token: device.token, headers: [.ifNoneMatch: changed.headers[.eTag]!])
            #expect(gone.status == .ok)
            #expect(gone.headers[.eTag] == emptyTag)
        }
        let recorded = try console.services.database.readBlocking { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Lobby iPad")) }
        #expect(recorded?.lastCheckInAt != nil)
    }

    /// Devices are kept in memory between check-ins; a change to the device must still show
    /// at its very next check-in.
    @Test func aMovedOrRemovedDeviceIsSeenAtItsNextCheckIn() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let (group, profile) = try await setUp(console)
        let other = try console.services.database.writeBlocking {
            try $0.insert(DeviceGroupRecord(name: "Spare", parentID: nil, createdAt: Date())).id
        }
        try console.services.database.writeBlocking {
            _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test"))
        }
        let adminToken = try await api.token(console, role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            for _ in 0..<2 {
                let locked = try await api.call(client, .get, "/api/v1/device/policy", token: device.token)
                #expect((locked.json["payloads"] as? [Any])?.count == 1)
            }

            let moved = try await api.call(client, .put, "/api/v1/devices/\(device.id)/group", token: adminToken, body: #"{"groupID": \#(other)}"#)
            #expect(moved.status == .noContent)
            let free = try await api.call(client, .get, "/api/v1/device/policy", token: device.token)
            #expect((free.json["payloads"] as? [Any])?.isEmpty == true)

            let removed = try await api.call(client, .delete, "/api/v1/devices/\(device.id)", token: adminToken)
            #expect(removed.status == .noContent)
            let refused = try await api.call(client, .get, "/api/v1/device/policy", token: device.token)
            #expect(refused.status == .unauthorized)
        }
    }

    @Test func badDeviceRequestsGetStableCodesAndChangeNothing() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Kiosk", supervised: true, group: nil, app: nil, console: console)
            try await admin.get("/devices/\(device.id)")
            try await admin.post("/devices/\(device.id)/commands", ["requestType": "RestartDevice"])

            let unknown = try await api.call(client, .get, "/api/v1/device/policy", token: "pcd_not-a-real-token")
            #expect(unknown.status == .unauthorized)
            #expect(api.errorCode(unknown.json) == "invalid_device_token")
            let missing = try await api.call(client, .get, "/api/v1/device/policy", token: nil)
            #expect(api.errorCode(missing.json) == "unauthenticated")

            let commands = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let envelope = try #require((commands.json["commands"] as? [[String: Any]])?.first)
            #expect((envelope["Command"] as? [String: Any])?["RequestType"] as? String == "RestartDevice")
            let uuid = try #require(envelope["CommandUUID"] as? String)
            #expect(envelope["Status"] as? String == "Queued", "the status before it was handed out")
            // Handed out, the command waits for the device's answer.
            let before = try console.services.database.readBlocking { try $0.fetch(DeviceCommandRecord.query()) }.map { "\($0.uuid) \($0.status) \($0.resultSummary)" }
            #expect(before.count == 1 && before[0].contains("sent"))

            let malformed = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: "{not json")
            #expect(malformed.status == .badRequest)
            #expect(api.errorCode(malformed.json) == "malformed_json")
            let oversize = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                              body: "{\"Status\": \"" + String(repeating: "x", count: 1_100_000) + "\"}")
            #expect(oversize.status == .contentTooLarge)
            #expect(api.errorCode(oversize.json) == "payload_too_large")
            let badStatus = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: #"{"Status": "Done"}"#)
            #expect(badStatus.status == .unprocessableContent)
            let unknownCommand = try await api.call(client, .post, "/api/v1/device/commands/\(UUID().uuidString)", token: device.token,
                                                    body: #"{"Status": "Acknowledged"}"#)
            #expect(unknownCommand.status == .notFound)
            #expect(api.errorCode(unknownCommand.json) == "unknown_command")
            #expect(try console.services.database.readBlocking { try $0.fetch(DeviceCommandRecord.query()) }.map { "\($0.uuid) \($0.status) \($0.resultSummary)" } == before)

            let controlCharacter = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                                      body: #"{"Status": "Error", "ErrorChain": [{"LocalizedDescription": "Busy\u0000"}]}"#)
            #expect(controlCharacter.status == .unprocessableContent)
            #expect((controlCharacter.json["error"] as? [String: Any])?["field"] as? String == "ErrorChain.0.LocalizedDescription")
            #expect(try console.services.database.readBlocking { try $0.fetch(DeviceCommandRecord.query()) }.map { "\($0.uuid) \($0.status) \($0.resultSummary)" } == before)

            // What the console does not read may hold anything.
            let answered = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                              body: #"{"Status": "Error", "UDID": "x\u0007", "ErrorChain": [{"ErrorCode": 12, "LocalizedDescription": "Busy", "USEnglishDescription": "\u001b"}]}"#)
            #expect(answered.status == .ok)
            let after = try console.services.database.readBlocking { try $0.fetch(DeviceCommandRecord.query()) }
            #expect(after.map(\.status) == [.error])
            #expect(after.first?.resultSummary == "Busy")
        }
    }

    @Test func simulatorActionsThroughTheAPIFollowTheRulesAndStoreLogs() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let viewer = try await api.token(console, role: .viewer)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Student iPad", supervised: false, group: nil, app: nil, console: console)
            try console.services.database.writeBlocking { connection in
                _ = try connection.insert(AppRecord(name: "Notes", bundleID: "com.example.notes", isManaged: true, isSDKBuilt: true,
                                                    hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
                var record = try connection.require(DeviceRecord.self, id: device.id)
                record.installedApps = ["com.example.notes"]
                try connection.update(record)
            }
            let path = "/api/v1/simulator/\(device.udid)/actions"
            let refusedForViewer = try await api.call(client, .post, path, token: viewer, body: #"{"action": "home"}"#)
            #expect(refusedForViewer.status == .forbidden)

            let unknown = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "fly"}"#)
            #expect(unknown.status == .unprocessableContent)
            #expect(api.errorCode(unknown.json) == "invalid_action")
            let missingApp = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "launchApp"}"#)
            #expect((missingApp.json["error"] as? [String: Any])?["field"] as? String == "app")

            let launched = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.notes"}"#)
            #expect(launched.status == .ok)
            #expect(((launched.json["state"] as? [String: Any])?["screen"] as? [String: Any])?["kind"] as? String == "app")

            let asam = try await api.call(client, .post, path, token: helpdesk,
                                          body: #"{"action": "requestLock", "app": "com.example.notes", "confirm": true}"#)
            let event = try #require(asam.json["event"] as? [String: Any])
            #expect(event["result"] as? String == "refused")
            #expect(event["rule"] as? String == "ASAM needs a supervised device")

            // No logging payload: nothing kept. The console's log store stays empty.
            _ = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "emitLog", "app": "com.example.notes", "level": "error", "count": 3}"#)
            #expect(try console.services.logs.readBlocking { try $0.count(DeviceLogRecord.query()) } == 0)
            let state = try await api.call(client, .get, "/api/v1/simulator/\(device.udid)", token: viewer)
            #expect(state.json["supervised"] as? Bool == false)
        }
    }

    @Test func uploadedLogsReachTheLogStoreAndFeedbackComesBackThroughACommand() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("hal@example.com", role: .helpdesk)
        try await console.addUser("val@example.com", role: .viewer)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let group = try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Check-in", bundleID: "com.example.checkin", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
            return try connection.insert(DeviceGroupRecord(name: "Clinic", parentID: nil, createdAt: Date())).id
        }
        let content = ProfileContent(name: "Clinic logs")
            .setting(Payload(Logging(level: .warning)))
            .setting(Payload(ManagedAppConfiguration(appIdentifier: "com.example.checkin", keys: [
                ConfigKey(name: "ward", type: .string, value: .string("North"))])))
        let profile = try await ProfileStore(database: console.services.database, now: { Date() }).create(identifier: "com.example.clinic", content: content, by: .system)
        try console.services.database.writeBlocking { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: group, assignedAt: Date(), assignedBy: "test")) }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Ward iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            let path = "/api/v1/simulator/\(device.udid)/actions"
            _ = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.checkin"}"#)
            // What the app received, and where each value came from, as the simulator page shows it.
            let state = try await api.call(client, .get, "/api/v1/simulator/\(device.udid)", token: helpdesk)
            let received = try #require((state.json["managedConfiguration"] as? [[String: Any]])?.first)
            #expect(received["app"] as? String == "com.example.checkin")
            let key = try #require((received["keys"] as? [[String: Any]])?.first)
            #expect(key["name"] as? String == "ward" && key["value"] as? String == "North" && key["source"] as? String == "console")
            for level in ["debug", "information", "warning", "error"] {
                _ = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "emitLog", "app": "com.example.checkin", "level": "\#(level)"}"#)
            }
            let levels = try console.services.logs.readBlocking { try $0.fetch(DeviceLogRecord.query().order(by: "id")).map(\.level) }
            #expect(levels == [.warning, .error])
            _ = try await api.call(client, .post, path, token: helpdesk,
                                   body: #"{"action": "emitLog", "app": "com.example.checkin", "level": "error", "message": "<b>ward</b> & co"}"#)

            // Helpdesk reads them in the log store, filtered; the message is escaped.
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            let logs = try await desk.get("/logs?device=\(device.id)&level=error")
            #expect(logs.status == .ok)
            #expect(logs.body.contains("&lt;b&gt;ward&lt;/b&gt; &amp; co"))
            #expect(logs.body.components(separatedBy: "<tr class=\"log-").count - 1 == 2)
            #expect(!logs.body.contains("level-warning\""))
            #expect(try await desk.get("/logs?device=\(device.id)&level=warning").body.contains("level-warning\""))

            // A viewer may read the device but not its logs, and not ask it for anything.
            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            #expect(try await viewer.get("/logs").status == .forbidden)
            try await viewer.get("/devices/\(device.id)")
            let refused = try await viewer.post("/devices/\(device.id)/commands", ["requestType": "ManagedApplicationFeedback"])
            #expect(refused.status == .forbidden)

            try await desk.get("/devices/\(device.id)")
            // Sending app configuration is an admin's; helpdesk may restart (checked in HelpdeskAPITests).
            let configuration = try await desk.post("/devices/\(device.id)/commands", ["requestType": "Settings"])
            #expect(configuration.status == .forbidden)
            try await desk.get("/devices/\(device.id)")
            let queued = try await desk.post("/devices/\(device.id)/commands", ["requestType": "ManagedApplicationFeedback", "deleteFeedback": "on"])
            #expect(queued.status == .seeOther)
            _ = try await api.call(client, .get, "/api/v1/simulator/\(device.udid)", token: helpdesk)
            let command = try #require(try console.services.database.readBlocking { try $0.fetchOne(DeviceCommandRecord.query()
                .filter("requestType", .equal, "ManagedApplicationFeedback")) })
            #expect(command.status == .acknowledged)
            #expect(command.result?["com.example.checkin"]?["configurationReads"] == .number(1))
            let page = try await desk.get("/devices/\(device.id)")
            #expect(page.body.contains("configurationReads 1"))
        }
    }

    @Test func singleAppModeWaitingForItsAppLocksOnceAnAdminInstallsIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let viewer = try await api.token(console, role: .viewer)
        let (group, profile) = try await setUp(console)
        try console.services.database.writeBlocking { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test")) }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: nil, console: console)
            let waiting = try await api.call(client, .get, "/api/v1/simulator/\(device.udid)", token: viewer)
            #expect(waiting.json["lock"] is NSNull)

            try console.services.database.writeBlocking { connection in
                var record = try connection.require(DeviceRecord.self, id: device.id)
                record.installedApps = ["com.example.checkin"]
                try connection.update(record)
            }
            let locked = try await api.call(client, .get, "/api/v1/simulator/\(device.udid)", token: viewer)
            #expect((locked.json["lock"] as? [String: Any])?["mode"] as? String == "singleAppMode")
            #expect(locked.json["foregroundApp"] as? String == "com.example.checkin")
        }
    }
}

/// A device's effective SDK policy, downloaded as the SDK profile its apps receive.
@Suite struct DeviceSDKProfileTests {
    @Test func theSDKPolicyCombinesEveryReachingProfileUnderTheSDKsKeyNames() async throws {
        let console = try await TestConsole.make(demo: true)
        let token = try await APITests().token(console, role: .viewer)
        try await console.addUser("vic@example.com", role: .viewer)
        let devices = try await console.services.database.read { try $0.fetch(DeviceRecord.query()) }
        let phone = try #require(devices.first { $0.name == "Sales iPhone 01" })
        try await console.test { client in
            let api = APITests()
            let first = try await api.call(client, .get, "/api/v1/devices/\(phone.id)/sdk-profile", token: token)
            #expect(first.status == .ok)
            #expect(first.json["DisplayName"] as? String == "SDK policy for Sales iPhone 01")
            #expect(((first.json["Geofence"] as? [String: Any])?["Areas"] as? [Any])?.count == 3)
            #expect((first.json["Logging"] as? [String: Any])?["Level"] as? String == "Warning")
            #expect((first.json["Branding"] as? [String: Any])?["EnableBranding"] as? Bool == true)
            #expect(first.json["Authentication"] != nil && first.json["DataLossPrevention"] == nil, "only what reaches the device's group")
            let again = try await api.call(client, .get, "/api/v1/devices/\(phone.id)/sdk-profile", token: token)
            #expect(NSDictionary(dictionary: again.json).isEqual(to: first.json), "the same policy is the same file")

            // Two Single App Mode payloads on the device's group: no one policy to export.
            let groups = try await console.services.database.read { try $0.fetch(DeviceGroupRecord.query()) }
            let sales = try #require(groups.first { $0.name == "Field sales" })
            for (identifier, app) in [("com.example.a", "com.example.fieldsales"), ("com.example.b", "com.example.mail")] {
                let profile = try await console.services.profileStore.create(identifier: identifier, content: ProfileContent(name: identifier), by: .system)
                try await console.services.profileStore.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: identifier, payloads: [
                    Payload(SingleAppMode(appIdentifier: app))]), note: "", by: .system)
                _ = try await console.services.assignments.assign(profile.id, to: sales.id, by: .system)
            }
            let conflict = try await api.call(client, .get, "/api/v1/devices/\(phone.id)/sdk-profile", token: token)
            #expect(conflict.status == .conflict && api.errorCode(conflict.json) == "policy_conflict")
            #expect(try await api.call(client, .get, "/api/v1/devices/999999/sdk-profile", token: token).status == .notFound)

            // The device page offers the download, as an attachment.
            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            let clinic = try #require(devices.first { $0.name == "Clinic iPad 01" })
            #expect(try await viewer.get(Site.Devices.show.link(clinic.id)).body.contains("href=\"/devices/\(clinic.id)/sdk-profile\""))
            let download = try await viewer.get(Site.Devices.sdkProfile.link(clinic.id))
            #expect(download.status == .ok && download.headers[.contentDisposition]?.contains("attachment") == true)
            #expect(download.body.contains("\"DataLossPrevention\""))
        }
    }
}
