@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Storage
import Testing

/// PostgreSQL stopped under a running console, then started again: every request that needs the
/// database is a clear 503 (a page for people, `database_unavailable` for programs) with
/// `Retry-After`, nothing is a 500 or ends the process, and service resumes without restarting
/// the console. On a server of the test's own, since the shared one cannot be stopped.
@Suite(.enabled(if: TestBackend.isPostgresWanted)) struct DatabaseOutageTests {
    /// Routes that answer without the database even for a signed-in caller.
    static let withoutDatabase: Set<String> = ["/healthz", "/api/openapi.json"]

    @Test func whileTheServerIsDownEveryRouteAnswers503AndServiceResumesWhenItIsBack() async throws {
        let server = try ThrowawayPostgres()
        defer { server.remove() }
        let console = try await TestConsole.make(database: server.url + "&pool=3")
        try await console.addUser("ann@example.com", role: .admin)
        let apiToken = try await APITests().token(console, role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let deviceToken = try await Self.enrolledDeviceToken(client, apiToken: apiToken)
            #expect(try await client.execute(uri: "/readyz", method: .get).status == .ok)

            try server.stop()
            let readiness = try await client.execute(uri: "/readyz", method: .get)
            #expect(readiness.status == .serviceUnavailable)
            #expect(String(buffer: readiness.body) == #"{"status":"database_unreachable"}"#)
            #expect(!String(buffer: readiness.body).contains(server.folder))

            let page = try await admin.get("/dashboard")
            #expect(page.status == .serviceUnavailable)
            #expect(page.headers[.retryAfter] == "5")
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.body.contains("The database is unreachable; try again in a moment."))
            #expect(!page.body.contains(server.folder), "the page names no server")

            let api = try await APITests().call(client, .get, "/api/v1/profiles", token: apiToken)
            #expect(api.status == .serviceUnavailable)
            #expect(api.headers[.retryAfter] == "5")
            let error = try #require(api.json["error"] as? [String: Any])
            #expect(error["code"] as? String == "database_unavailable")
            #expect(error["message"] as? String == "The database is unreachable; try again in a moment.")
            #expect(error.keys.contains("field") && error["field"] is NSNull, "field is there, null")

            let checkIn = try await APITests().call(client, .get, "/api/v1/device/policy", token: deviceToken)
            #expect(checkIn.status == .serviceUnavailable)
            #expect((checkIn.json["error"] as? [String: Any])?["code"] as? String == "database_unavailable")

            // A form post: refused as clearly, never half-saved.
            let post = try await admin.post("/apps", ["name": "Outage", "bundleID": "com.example.outage"])
            #expect(post.status == .serviceUnavailable)

            // The class, not the examples: every GET route, with an id where it takes one.
            var unexpected: [String] = []
            for route in console.routes where route.method == .get {
                let path = Self.concrete(route.path)
                let token = route.access == .device ? deviceToken : apiToken
                let answer = route.path.hasPrefix("/api/")
                    ? try await APITests().call(client, .get, path, token: token).status
                    : try await admin.get(path).status
                let expected: HTTPResponse.Status = Self.withoutDatabase.contains(route.path) || route.path.hasPrefix("/css") || route.path.hasPrefix("/js")
                    ? .ok : .serviceUnavailable
                if answer != expected && !(answer == .notFound && expected == .ok) {
                    unexpected.append("GET \(path) answered \(answer.code)")
                }
            }
            #expect(unexpected.isEmpty, "\(unexpected)")

            try server.start()
            #expect(try await Self.eventually { try await client.execute(uri: "/readyz", method: .get).status == .ok })
            #expect(try await admin.get("/dashboard").status == .ok, "the session made before the outage holds")
            #expect(try await APITests().call(client, .get, "/api/v1/profiles", token: apiToken).status == .ok)
            #expect(try await APITests().call(client, .get, "/api/v1/device/policy", token: deviceToken).status == .ok)
            try await admin.get("/apps")
            #expect(try await admin.post("/apps", ["name": "After", "bundleID": "com.example.after"]).status == .seeOther)
        }
        let apps = try await console.services.database.read { try $0.fetch(AppRecord.query()).map(\.bundleID) }
        #expect(apps == ["com.example.after"], "nothing of the post during the outage was kept")
    }

    /// A device with a check-in token, made through the API.
    static func enrolledDeviceToken(_ client: any TestClientProtocol, apiToken: String) async throws -> String {
        let device = try await APITests().call(client, .post, "/api/v1/devices", token: apiToken, body: """
            {"name": "Outage iPad", "model": "iPad", "osVersion": "18.1", "serialNumber": "DMPOUTAGE01", "udid": "00008101-000A1B2C3D4E5F60", "isSupervised": true}
            """)
        let id = try #require(device.json["id"] as? Int, "\(device.status) \(device.json)")
        let token = try await APITests().call(client, .post, "/api/v1/devices/\(id)/token", token: apiToken, body: "{}")
        return try #require(token.json["token"] as? String, "\(token.status) \(token.json)")
    }

    /// A route's path with its parameters filled in: ids 1, anything else a word.
    static func concrete(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            guard segment.hasPrefix("{") else { return String(segment) }
            // An enrollment link's token is 43 characters: a shorter one is refused unread.
            if segment == "{token}" { return String(repeating: "a", count: 43) }
            return ["{uuid}", "{key}", "{udid}", "{signature}", "{slug}", "{page}"].contains(segment) ? "outage" : "1"
        }.joined(separator: "/") + (path == "/mdm/scep" ? "?operation=GetCACert" : "")
    }

    /// Whether `condition` holds within ten seconds (the server takes a moment to accept connections).
    static func eventually(_ condition: () async throws -> Bool) async throws -> Bool {
        for _ in 0..<50 {
            if try await condition() { return true }
            try await Task.sleep(for: .milliseconds(200))
        }
        return false
    }
}
