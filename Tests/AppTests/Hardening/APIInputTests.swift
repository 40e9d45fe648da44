@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// JSON bodies are decoded by `Codable` request types: a wrong type, unknown field, bad id or
/// value outside a rule is a 422 that names the field, and nothing changes.
@Suite struct APIInputTests {
    struct Answer {
        let status: HTTPResponse.Status
        let json: [String: Any]
        var code: String? { (json["error"] as? [String: Any])?["code"] as? String }
        var field: String? { (json["error"] as? [String: Any])?["field"] as? String }
        var message: String? { (json["error"] as? [String: Any])?["message"] as? String }
    }

    func call(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String, body: String,
              headers: HTTPFields = [:]) async throws -> Answer {
        var all = headers
        all[.authorization] = "Bearer \(token)"
        all[.contentType] = "application/json"
        let response = try await client.execute(uri: path, method: method, headers: all, body: ByteBuffer(string: body))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
        return Answer(status: response.status, json: json)
    }

    /// A console with an admin token, a group "Kiosks" (id 1) holding a supervised device (id 1).
    func fixture() async throws -> (TestConsole, String) {
        let console = try await TestConsole.make()
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "script", role: .admin, by: .system).token
        try console.services.database.writeBlocking { connection in
            let group = try connection.insert(DeviceGroupRecord(name: "Kiosks", parentID: nil, createdAt: Date()))
            _ = try connection.insert(DeviceGroupRecord(name: "Lobby", parentID: group.id, createdAt: Date()))
            _ = try connection.insert(DeviceRecord(
                name: "Lobby 1", model: .iPad, osVersion: "17.4", serialNumber: "DMPXK2ABCD", udid: "00008101-000A1B2C3D4E5F60",
                isSupervised: true, owner: "", groupID: group.id, installedApps: ["com.example.mail"], enrolledAt: Date(), lastCheckInAt: nil))
            _ = try connection.insert(AppRecord(name: "Mail", bundleID: "com.example.mail", isManaged: false, isSDKBuilt: false,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
        }
        return (console, token)
    }

    func snapshot(_ console: TestConsole) throws -> String {
        try console.services.database.readBlocking { connection in
            let devices = try connection.fetch(DeviceRecord.query().order(by: "id")).map { "\($0)" }
            let groups = try connection.fetch(DeviceGroupRecord.query().order(by: "id")).map { "\($0)" }
            let apps = try connection.fetch(AppRecord.query().order(by: "id")).map { "\($0)" }
            let profiles = try connection.fetch(ProfileRecord.query().order(by: "id")).map { "\($0)" }
            return (devices + groups + apps + profiles).joined(separator: "\n")
        }
    }

    static let device = #""name": "Lobby 1", "model": "iPad", "osVersion": "17.4", "serialNumber": "DMPXK2ABCD", "udid": "00008101-000A1B2C3D4E5F60""#

    @Test(arguments: [
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": \"1\"}", "groupID"),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"installedApps\": \"com.example.mail\"}", "installedApps"),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"isSupervised\": \"true\"}", "isSupervised"),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 0}", "groupID"),
        ("PUT", "/api/v1/devices/1", "{\(device.replacingOccurrences(of: "iPad", with: "iPod")), \"groupID\": 1}", "model"),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"isSupervized\": true}", "isSupervized"),
        ("PUT", "/api/v1/devices/1", "{\(device.replacingOccurrences(of: "DMPXK2", with: "DMPXK\u{FF12}")), \"groupID\": 1}", "serialNumber"),
        ("PUT", "/api/v1/devices/1", "{\(device.replacingOccurrences(of: "17.4", with: "\u{0661}\u{0667}.4")), \"groupID\": 1}", "osVersion"),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"owner\": \"Ann\\u0000\"}", "owner"),
        ("PUT", "/api/v1/devices/1/group", #"{"groupID": true}"#, "groupID"),
        ("PUT", "/api/v1/devices/1/group", #"{"groupID": -1}"#, "groupID"),
        ("PUT", "/api/v1/devices/1/group", #"{}"#, "groupID"),
        ("PUT", "/api/v1/groups/2", #"{"name": "Lobby", "parentID": "1"}"#, "parentID"),
        ("PUT", "/api/v1/groups/2", #"{"name": "Lobby", "parentID": -1}"#, "parentID"),
        ("PUT", "/api/v1/groups/2", #"{"name": "Lobby", "parentID": 0}"#, "parentID"),
        ("PUT", "/api/v1/groups/2", #"{"name": "Lob\u001bby", "parentID": 1}"#, "name"),
        ("PUT", "/api/v1/apps/1", #"{"name": "Mail", "bundleID": "com.example.mail", "isManaged": "false"}"#, "isManaged"),
        ("POST", "/api/v1/apps", #"{"name": "Notes\nApp", "bundleID": "com.example.notes"}"#, "name"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [1]}"#, "payloads.0"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": ["x"]}"#, "payloads.0"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [null]}"#, "payloads.0"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [true]}"#, "payloads.0"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": {}}"#, "payloads"),
        ("POST", "/api/v1/profiles", #"{"name": "x\u0000"}"#, "name"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [{"PayloadType": "com.payloadconsole.sdk.logging", "enabled": true, "level": "warning", "wifiOnly": false, "wifiOnley": true}]}"#, "payloads.0.wifiOnley"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.exam", "Options": {"DisableTouch": "yes"}}}]}"#, "payloads.0.App.Options.DisableTouch"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.exam", "Options": {"DisableTuoch": true}}}]}"#, "payloads.0.App.Options.DisableTuoch"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [{"PayloadType": "com.payloadconsole.sdk.managed-app-config", "appIdentifier": "com.example.mail", "keys": []}]}"#, "payloads.0.app"),
        ("POST", "/api/v1/profiles/1/assignments", #"{"groupID": "1"}"#, "groupID"),
        ("POST", "/api/v1/simulator/00008101-000A1B2C3D4E5F60/actions", #"{"action": "launchApp", "app": "com.example.mail\u0001"}"#, "app"),
        ("POST", "/api/v1/simulator/00008101-000A1B2C3D4E5F60/actions", #"{"action": "copy", "app": "com.example.mail", "text": "a\u0000b"}"#, "text"),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.exam\u001b"}}]}"#, "payloads.0.App.Identifier"),
    ])
    func aWrongFieldIsRefusedByNameAndChangesNothing(_ case: (method: String, path: String, body: String, field: String)) async throws {
        let (console, token) = try await fixture()
        let before = try snapshot(console)
        try await console.test { client in
            let answer = try await call(client, HTTPRequest.Method(`case`.method)!, `case`.path, token: token, body: `case`.body)
            #expect(answer.status == .unprocessableContent, "\(`case`.body)")
            #expect(answer.field == `case`.field, "\(answer.json)")
        }
        #expect(try snapshot(console) == before)
    }

    /// The message says what the field should have been, in the words of JSON, not Swift's.
    @Test(arguments: [
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"installedApps\": \"com.example.mail\"}", "installedApps must be an array."),
        ("PUT", "/api/v1/devices/1", "{\(device), \"groupID\": 1, \"isSupervised\": \"true\"}", "isSupervised must be true or false."),
        ("PUT", "/api/v1/groups/2", #"{"name": "Lobby", "parentID": "1"}"#, "parentID must be a whole number."),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": {}}"#, "payloads must be an array."),
        ("POST", "/api/v1/profiles", #"{"name": "x", "payloads": [1]}"#, "payloads.0 must be an object."),
        ("POST", "/api/v1/profiles", #"{"name": 7}"#, "name must be a string."),
    ])
    func aWrongTypeIsNamedInJSONsWords(_ case: (method: String, path: String, body: String, message: String)) async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let answer = try await call(client, HTTPRequest.Method(`case`.method)!, `case`.path, token: token, body: `case`.body)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.message == `case`.message, "\(answer.json)")
        }
    }

    @Test func theProfileDescriptionLimitOfThePageHoldsForTheAPI() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let long = String(repeating: "a", count: ProfileRules.maximumDescriptionLength + 1)
            let answer = try await call(client, .post, "/api/v1/profiles", token: token, body: #"{"name": "x", "description": "\#(long)"}"#)
            #expect(answer.status == .unprocessableContent)
            #expect(answer.field == "description")
        }
    }

    @Test(arguments: ["[1]", "\"x\"", "null", "not json", String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)])
    func aBodyThatIsNotAnObjectIsABadRequest(_ body: String) async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let answer = try await call(client, .post, "/api/v1/groups", token: token, body: body)
            #expect(answer.status == .badRequest)
            #expect(answer.code == "malformed_json")
        }
    }

    @Test func aDeeplyNestedValueInsideAnObjectIsRefusedWithoutHarm() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let nested = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
            let answer = try await call(client, .post, "/api/v1/profiles", token: token, body: #"{"name": "x", "payloads": \#(nested)}"#)
            #expect(answer.status.code >= 400 && answer.status.code < 500)
            let answered = try await client.execute(uri: "/healthz", method: .get).status
            #expect(answered == .ok)
        }
    }

    @Test func aJSONBodyOverOneMegabyteIs413() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let answer = try await call(client, .post, "/api/v1/groups", token: token, body: String(repeating: " ", count: RequestLimits.jsonBody + 1) + "{}")
            #expect(answer.status == .contentTooLarge)
            #expect(answer.code == "payload_too_large")
        }
    }

    @Test func movingADeviceWithNullTakesItOutOfItsGroup() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let answer = try await call(client, .put, "/api/v1/devices/1/group", token: token, body: #"{"groupID": null}"#)
            #expect(answer.status == .noContent)
        }
        let device = try console.services.database.readBlocking { try $0.require(DeviceRecord.self, id: RecordID(1)) }
        #expect(device.groupID == nil)
    }

    @Test func aQueryParameterOutOfRangeIs400NotADefault() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            for query in ["limit=9223372036854775808", "limit=0", "limit=501", "limit=ten", "limit=", "after=-1", "group=0", "after=1e3"] {
                let answer = try await call(client, .get, "/api/v1/devices?\(query)", token: token, body: "")
                #expect(answer.status == .badRequest, "\(query)")
                #expect(answer.code == "invalid_query", "\(query)")
                #expect(answer.field == String(query.prefix { $0 != "=" }), "\(query)")
            }
            let page = try await call(client, .get, "/api/v1/devices?limit=500&after=1", token: token, body: "")
            #expect(page.status == .ok)
            let created = try await call(client, .post, "/api/v1/profiles", token: token, body: #"{"name": "Lobby"}"#)
            let id = try #require(created.json["id"] as? Int)
            let signed = try await call(client, .get, "/api/v1/profiles/\(id)/versions/1/mobileconfig?signed=yes", token: token, body: "")
            #expect(signed.status == .badRequest)
            #expect(signed.field == "signed")
        }
    }

    @Test func ifMatchStarSavesOverTheCurrentVersionAndAHalfQuotedOneIsRefused() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let created = try await call(client, .post, "/api/v1/profiles", token: token, body: #"{"name": "Lobby"}"#)
            let id = try #require(created.json["id"] as? Int)
            let halfQuoted = try await call(client, .put, "/api/v1/profiles/\(id)", token: token, body: #"{"name": "Lobby 2"}"#, headers: [.ifMatch: "\"1"])
            #expect(halfQuoted.status == .badRequest)
            #expect(halfQuoted.code == "malformed_if_match")
            let star = try await call(client, .put, "/api/v1/profiles/\(id)", token: token, body: #"{"name": "Lobby 2"}"#, headers: [.ifMatch: "*"])
            #expect(star.status == .ok)
            #expect(star.json["version"] as? Int == 2)
            let stale = try await call(client, .put, "/api/v1/profiles/\(id)", token: token, body: #"{"name": "Lobby 3"}"#, headers: [.ifMatch: "W/\"1\""])
            #expect(stale.status == .preconditionFailed)
        }
    }

    /// The document says so: an optional field sent as null is as if it were left out.
    @Test func nullInAnOptionalFieldTakesItsDefault() async throws {
        let (console, token) = try await fixture()
        try await console.test { client in
            let app = try await call(client, .post, "/api/v1/apps", token: token,
                                     body: #"{"name": "Notes", "bundleID": "com.example.notes", "isManaged": null, "isSDKBuilt": null, "iconColor": null}"#)
            #expect(app.status == .created)
            let stored = try console.services.database.readBlocking { try $0.fetchOne(AppRecord.query().filter("bundleID", .equal, "com.example.notes")) }
            #expect(stored?.isManaged == true)
            #expect(stored?.isSDKBuilt == false)
        }
    }
}
