@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// Downloads, file uploads and the device API are declared as endpoints like every JSON
/// operation: the document describes them from the same declarations the routes run.
@Suite struct FileAndDeviceEndpointTests {
    func operation(_ document: [String: Any], _ method: String, _ path: String) throws -> [String: Any] {
        let paths = try #require(document["paths"] as? [String: Any])
        return try #require((paths[path] as? [String: Any])?[method] as? [String: Any], "\(method) \(path)")
    }

    func mediaTypes(_ part: [String: Any]?) -> Set<String> {
        Set((part?["content"] as? [String: Any] ?? [:]).keys)
    }

    @Test func importsLogsExportsAndTheDeviceAPIAreDeclaredAsEndpoints() async throws {
        let console = try await TestConsole.make()
        let declared = Set(console.console.operations.map { "\($0.method.rawValue) \($0.path)" })
        let routes = console.routes.filter { route in
            ["/api/v1/device/", "/api/v1/logs", "/api/v1/imports/"].contains { route.path.hasPrefix($0) }
                || route.path.hasPrefix("/api/") && ["/specfile", "/sdk-profile", "/mobileconfig"].contains { route.path.hasSuffix($0) }
        }
        #expect(routes.count == 15)
        for route in routes {
            #expect(declared.contains("\(route.method.rawValue) \(route.path)"), "\(route.method) \(route.path) is a plain route")
        }
    }

    @Test func deviceOperationsAskForTheDeviceTokenAndNoRole() async throws {
        let console = try await TestConsole.make()
        let document = try await TestConsole.openAPIDocument()
        let deviceRoutes = console.routes.filter { $0.access == .device }
        #expect(deviceRoutes.count == 6)
        for route in deviceRoutes {
            let described = try operation(document, route.method.rawValue.lowercased(), route.path)
            #expect(described["security"] as? [[String: [String]]] == [["deviceToken": []]], "\(route.path)")
            let responses = try #require(described["responses"] as? [String: Any])
            #expect(responses["403"] == nil, "a device token has no role to lack: \(route.path)")
            #expect((responses["401"] as? [String: Any])?["description"] as? String == "No device token (unauthenticated) or an unknown one (invalid_device_token)")
        }
        let checkIn = try #require(try operation(document, "get", "/api/v1/device/policy")["responses"] as? [String: Any])
        #expect(checkIn["304"] != nil)
        #expect(((checkIn["200"] as? [String: Any])?["headers"] as? [String: Any])?["ETag"] != nil)
    }

    @Test func downloadsAndFileBodiesAreDescribedByTheirMediaTypes() async throws {
        let document = try await TestConsole.openAPIDocument()
        func answer(_ method: String, _ path: String, _ status: String = "200") throws -> [String: Any]? {
            (try operation(document, method, path)["responses"] as? [String: Any])?[status] as? [String: Any]
        }
        #expect(mediaTypes(try answer("get", "/api/v1/profiles/{id}/versions/{number}/mobileconfig")) == ["application/x-apple-aspen-config"])
        #expect(mediaTypes(try answer("get", "/api/v1/device/policy.mobileconfig")) == ["application/x-apple-aspen-config"])
        #expect(mediaTypes(try answer("get", "/api/v1/logs/export")) == ["application/x-ndjson", "text/plain"])
        #expect(mediaTypes(try answer("get", "/api/v1/devices/{id}/sdk-profile")) == ["application/json"])
        #expect(mediaTypes(try operation(document, "post", "/api/v1/imports/mobileconfig")["requestBody"] as? [String: Any])
                == ["application/x-apple-aspen-config", "application/octet-stream"])
        #expect(mediaTypes(try operation(document, "put", "/api/v1/apps/{id}/specfile")["requestBody"] as? [String: Any]) == ["application/xml", "text/xml"])
        #expect(mediaTypes(try operation(document, "post", "/api/v1/device/logs")["requestBody"] as? [String: Any]) == ["application/x-ndjson"])
        // An import answers 201, 200 or 409 by what it did: each with its own schema.
        for status in ["200", "201", "409"] {
            #expect(mediaTypes(try answer("post", "/api/v1/imports/mobileconfig", status)) == ["application/json"], "\(status)")
        }
        let line = try #require((try operation(document, "delete", "/api/v1/logs")["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "line" })
        #expect(line["style"] as? String == "form" && line["explode"] as? Bool == true)
    }

    /// The examples are encoded from the answers' own types, so they read back as those types.
    @Test func documentedExamplesReadBackAsTheirAnswers() async throws {
        let document = try await TestConsole.openAPIDocument()
        let schemas = (document["components"] as? [String: Any])?["schemas"] as? [String: Any]
        for (name, type) in [("LogPage", LogPage.self), ("CrashGroups", CrashGroupList.self)] as [(String, any APIAnswer.Type)] {
            let example = try #require((schemas?[name] as? [String: Any])?["example"], Comment(rawValue: name))
            _ = try APIAnswerCoding.decoder.decode(type, from: JSONSerialization.data(withJSONObject: example))
        }
    }

    /// Check-in serves the cached answer's bytes: the body a device receives is a typed
    /// `PolicyAnswer` as the API encodes it, the same bytes at every check-in.
    @Test func checkInServesThePolicyAnswerEncodedOnce() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let deviceTests = DeviceAPITests()
        let (group, profile) = try await deviceTests.setUp(console)
        _ = try await console.services.assignments.assign(profile, to: group, by: .system)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await deviceTests.enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            func checkIn() async throws -> [UInt8] {
                let response = try await client.execute(uri: "/api/v1/device/policy", method: .get, headers: [.authorization: "Bearer \(device.token)"])
                #expect(response.status == .ok && response.headers[.contentType] == "application/json; charset=utf-8")
                return Array(response.body.readableBytesView)
            }
            let first = try await checkIn()
            let typed = try APIAnswerCoding.decoder.decode(PolicyAnswer.self, from: Data(first))
            #expect(typed.payloads.count == 1 && typed.conflict.isEmpty)
            #expect(Array(try typed.encodedJSON()) == first)
            #expect(try await checkIn() == first)
        }
    }
}
