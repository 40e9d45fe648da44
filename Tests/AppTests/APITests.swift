@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

@Suite struct APITests {
    func token(_ console: TestConsole, role: Role) async throws -> String {
        try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "script", role: role, by: .system).token
    }

    func call(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String?,
              body: String? = nil, headers: HTTPFields = [:]) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: [String: Any]) {
        var all = headers
        if let token { all[.authorization] = "Bearer \(token)" }
        if body != nil { all[.contentType] = "application/json" }
        let response = try await client.execute(uri: path, method: method, headers: all, body: body.map { ByteBuffer(string: $0) })
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
        return (response.status, response.headers, json)
    }

    func errorCode(_ json: [String: Any]) -> String? { (json["error"] as? [String: Any])?["code"] as? String }

    @Test func aScriptCreatesAndVersionsAProfileWithAppleKeys() async throws {
        let console = try await TestConsole.make()
        let admin = try await token(console, role: .admin)
        try await console.test { client in
            let body = """
                {"name": "Exam lock", "payloads": [
                  {"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.exam", "Options": {"DisableTouch": true}}},
                  {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": true, "level": "warning", "wifiOnly": false}
                ]}
                """
            let created = try await call(client, .post, "/api/v1/profiles", token: admin, body: body)
            #expect(created.status == .created)
            // Created with its payloads as version 1: no empty first version in its history.
            #expect(created.headers[.eTag] == "\"1\"")
            #expect(created.json["version"] as? Int == 1)
            let id = try #require(created.json["id"] as? Int)
            let payloads = try #require(created.json["payloads"] as? [[String: Any]])
            let app = try #require(payloads.first?["App"] as? [String: Any])
            #expect((app["Options"] as? [String: Any])?["DisableTouch"] as? Bool == true)

            let update = #"{"name": "Exam lock", "payloads": []}"#
            let missing = try await call(client, .put, "/api/v1/profiles/\(id)", token: admin, body: update)
            #expect(missing.status == .preconditionRequired)
            let fresh = try await call(client, .put, "/api/v1/profiles/\(id)", token: admin, body: update, headers: [.ifMatch: "\"1\""])
            #expect(fresh.status == .ok)
            #expect(fresh.json["version"] as? Int == 2)
            let stale = try await call(client, .put, "/api/v1/profiles/\(id)", token: admin, body: update, headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed)
            #expect(errorCode(stale.json) == "version_conflict")

            let sdk = try await client.execute(uri: "/api/v1/profiles/\(id)/versions/1/sdk-profile", method: .get, headers: [.authorization: "Bearer \(admin)"])
            let sdkJSON = try #require(try JSONSerialization.jsonObject(with: Data(sdk.body.readableBytesView)) as? [String: Any])
            #expect((sdkJSON["Logging"] as? [String: Any])?["Level"] as? String == "Warning")
        }
    }

    @Test func badRequestsGetStableErrorCodesAndChangeNothing() async throws {
        let console = try await TestConsole.make()
        let admin = try await token(console, role: .admin)
        let viewer = try await token(console, role: .viewer)
        try await console.test { client in
            #expect(errorCode(try await call(client, .get, "/api/v1/profiles", token: nil).json) == "unauthenticated")
            #expect(errorCode(try await call(client, .get, "/api/v1/profiles", token: "pct_nope").json) == "invalid_token")
            let forbidden = try await call(client, .post, "/api/v1/profiles", token: viewer, body: #"{"name": "x"}"#)
            #expect(forbidden.status == .forbidden)
            let malformed = try await call(client, .post, "/api/v1/profiles", token: admin, body: "{nope")
            #expect(malformed.status == .badRequest)
            #expect(errorCode(malformed.json) == "malformed_json")
            let invalid = try await call(client, .post, "/api/v1/profiles", token: admin, body: """
                {"name": "Bad", "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "not a bundle"}}]}
                """)
            #expect(invalid.status == .unprocessableContent)
            #expect((invalid.json["error"] as? [String: Any])?["field"] as? String == "payloads.0.app")
            let unknown = try await call(client, .post, "/api/v1/profiles", token: admin, body: #"{"name": "Bad", "payloads": [{"PayloadType": "com.example.x"}]}"#)
            #expect(errorCode(unknown.json) == "validation_failed")
            #expect(try await call(client, .get, "/api/v1/profiles/999", token: admin).status == .notFound)
        }
        #expect(try console.services.database.readBlocking { try $0.count(ProfileRecord.query()) } == 0)
    }

    @Test func everyAPIAndMachineRouteIsDescribedInTheOpenAPIDocument() async throws {
        let console = try await TestConsole.make()
        let paths = try #require((try await TestConsole.openAPIDocument())["paths"] as? [String: [String: Any]])
        // The API, the device API and the load balancer's checks: every route a program calls.
        let apiRoutes = console.routes.filter { $0.path.hasPrefix("/api/") || ["/healthz", "/readyz"].contains($0.path) }
        #expect(apiRoutes.contains { $0.path == "/readyz" })
        #expect(!apiRoutes.isEmpty)
        for route in apiRoutes {
            #expect(paths[route.path]?[route.method.rawValue.lowercased()] != nil, "\(route.method) \(route.path) is not in openapi.json")
        }
        try await console.test { client in
            let served = try await call(client, .get, "/api/openapi.json", token: nil)
            #expect(served.json["openapi"] as? String == "3.1.0")
        }
    }

    @Test func revokedTokensStopWorking() async throws {
        let console = try await TestConsole.make()
        let store = APITokenStore(database: console.services.database, now: { Date() })
        let (token, record) = try await store.create(name: "nightly", role: .viewer, by: .system)
        try await console.test { client in
            #expect(try await call(client, .get, "/api/v1/groups", token: token).status == .ok)
            try await store.revoke(record.id, by: .system)
            #expect(try await call(client, .get, "/api/v1/groups", token: token).status == .unauthorized)
        }
    }
}

@Suite struct CatalogAPITests {
    @Test func scriptsAddAppsGroupsAndDevicesWithTheFormsRules() async throws {
        let console = try await TestConsole.make()
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "s", role: .admin, by: .system).token
        let api = APITests()
        try await console.test { client in
            let app = try await api.call(client, .post, "/api/v1/apps", token: token, body: #"{"name": "Exam", "bundleID": "com.example.exam"}"#)
            #expect(app.status == .created)
            let duplicate = try await api.call(client, .post, "/api/v1/apps", token: token, body: #"{"name": "Exam", "bundleID": "com.example.exam"}"#)
            #expect(api.errorCode(duplicate.json) == "bundle_id_taken")
            let group = try await api.call(client, .post, "/api/v1/groups", token: token, body: #"{"name": "Exam iPads"}"#)
            let groupID = try #require(group.json["id"] as? Int)
            let bad = try await api.call(client, .post, "/api/v1/devices", token: token, body: """
                {"name": "Exam 1", "model": "iPad", "osVersion": "18.1", "serialNumber": "X", "udid": "00008030-001A35E03C8A802E"}
                """)
            #expect(bad.status == .unprocessableContent)
            #expect((bad.json["error"] as? [String: Any])?["field"] as? String == "serialNumber")
            let device = try await api.call(client, .post, "/api/v1/devices", token: token, body: """
                {"name": "Exam 1", "model": "iPad", "osVersion": "18.1", "serialNumber": "F9FXK1Q2W3", "udid": "00008030-001A35E03C8A802E", "isSupervised": true, "groupID": \(groupID)}
                """)
            #expect(device.status == .created)
            let listed = try await api.call(client, .get, "/api/v1/devices?group=\(groupID)", token: token)
            #expect((listed.json["devices"] as? [[String: Any]])?.first?["name"] as? String == "Exam 1")
            let deviceID = try #require(device.json["id"] as? Int)

            let notEmpty = try await api.call(client, .delete, "/api/v1/groups/\(groupID)", token: token)
            #expect(api.errorCode(notEmpty.json) == "group_not_empty")
            let moved = try await api.call(client, .put, "/api/v1/devices/\(deviceID)/group", token: token, body: #"{"groupID": null}"#)
            #expect(moved.status == .noContent)
            #expect(try await api.call(client, .delete, "/api/v1/groups/\(groupID)", token: token).status == .noContent)
            #expect(try await api.call(client, .delete, "/api/v1/devices/\(deviceID)", token: token).status == .noContent)
            #expect(try await api.call(client, .delete, "/api/v1/devices/\(deviceID)", token: token).status == .notFound)
        }
    }

    @Test func scriptsReplaceAppsGroupsAndDevicesWithTheSameChecks() async throws {
        let console = try await TestConsole.make()
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "s", role: .admin, by: .system).token
        let api = APITests()
        try await console.test { client in
            let exam = try #require(try await api.call(client, .post, "/api/v1/apps", token: token, body: #"{"name": "Exam", "bundleID": "com.example.exam"}"#).json["id"] as? Int)
            _ = try await api.call(client, .post, "/api/v1/apps", token: token, body: #"{"name": "Quiz", "bundleID": "com.example.quiz"}"#)
            let renamed = try await api.call(client, .put, "/api/v1/apps/\(exam)", token: token,
                                             body: #"{"name": "Exam Browser", "bundleID": "com.example.exam", "hasAssessmentEntitlement": true}"#)
            #expect(renamed.status == .ok)
            #expect(renamed.json["hasAssessmentEntitlement"] as? Bool == true)
            let clash = try await api.call(client, .put, "/api/v1/apps/\(exam)", token: token, body: #"{"name": "Exam", "bundleID": "com.example.quiz"}"#)
            #expect(api.errorCode(clash.json) == "bundle_id_taken")

            let schools = try #require(try await api.call(client, .post, "/api/v1/groups", token: token, body: #"{"name": "Schools"}"#).json["id"] as? Int)
            let exams = try #require(try await api.call(client, .post, "/api/v1/groups", token: token, body: #"{"name": "Exam iPads", "parentID": \#(schools)}"#).json["id"] as? Int)
            let cycle = try await api.call(client, .put, "/api/v1/groups/\(schools)", token: token, body: #"{"name": "Schools", "parentID": \#(exams)}"#)
            #expect(cycle.status == .unprocessableContent)
            #expect((cycle.json["error"] as? [String: Any])?["field"] as? String == "parentID")
            let moved = try await api.call(client, .put, "/api/v1/groups/\(exams)", token: token, body: #"{"name": "Exam iPads 2026"}"#)
            #expect(moved.json["parentID"] is NSNull)

            let device = try #require(try await api.call(client, .post, "/api/v1/devices", token: token, body: """
                {"name": "Exam 1", "model": "iPad", "osVersion": "18.1", "serialNumber": "F9FXK1Q2W3", "udid": "00008030-001A35E03C8A802E"}
                """).json["id"] as? Int)
            let replaced = try await api.call(client, .put, "/api/v1/devices/\(device)", token: token, body: """
                {"name": "Exam 1", "model": "iPad", "osVersion": "18.2", "serialNumber": "F9FXK1Q2W3", "udid": "00008030-001A35E03C8A802E",
                 "isSupervised": true, "groupID": \(exams), "installedApps": ["com.example.exam"]}
                """)
            #expect(replaced.status == .ok)
            #expect(replaced.json["installedApps"] as? [String] == ["com.example.exam"])
            let noGroup = try await api.call(client, .put, "/api/v1/devices/\(device)", token: token, body: """
                {"name": "Exam 1", "osVersion": "18.2", "serialNumber": "F9FXK1Q2W3", "udid": "00008030-001A35E03C8A802E", "groupID": 999}
                """)
            #expect(noGroup.status == .unprocessableContent)
        }
        let device = try console.services.database.readBlocking { try $0.fetchOne(DeviceRecord.query()) }
        #expect(device?.osVersion == "18.2")
        #expect(device?.isSupervised == true)
        let actions = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query()).map(\.action) }
        #expect(actions.filter { $0.hasSuffix(".updated") }.count == 3)
    }
}
