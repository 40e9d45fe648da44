@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// The managed browser and mail app DLP sends links to: named on the app's form or through the
/// API, refused for an unmanaged app, and what a simulated device's links open in.
@Suite struct AppRoleTests {
    let api = APITests()

    func apps(_ console: TestConsole) throws -> [AppRecord] {
        try console.services.database.readBlocking { try $0.fetch(AppRecord.query().order(by: "id")) }
    }

    @Test func theFormAndTheAPINameTheManagedBrowserAndMailApp() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            try await browser.get("/apps")
            // A role for an app the user installed is refused beside the role, with the values kept.
            let refused = try await browser.post("/apps", ["name": "Web", "bundleID": "com.example.web", "role": "browser", "iconColor": "#112233"])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#"id="app-role-error""#))
            #expect(refused.body.contains(#"<option value="browser" selected>"#))
            #expect(try apps(console).isEmpty)
            try await browser.post("/apps", ["name": "Web", "bundleID": "com.example.web", "isManaged": "on", "role": "browser", "iconColor": "#112233"])
            #expect(try apps(console).map(\.role) == [.browser])

            let mail = try await api.call(client, .post, "/api/v1/apps", token: admin, body: #"{"name": "Boxer", "bundleID": "com.example.boxer", "role": "mail"}"#)
            #expect(mail.status == .created && mail.json["role"] as? String == "mail")
            let unknown = try await api.call(client, .post, "/api/v1/apps", token: admin, body: #"{"name": "X", "bundleID": "com.example.x", "role": "printer"}"#)
            #expect(unknown.status == .unprocessableContent || unknown.status == .badRequest)
            let unmanaged = try await api.call(client, .post, "/api/v1/apps", token: admin,
                                               body: #"{"name": "Y", "bundleID": "com.example.y", "isManaged": false, "role": "mail"}"#)
            #expect(unmanaged.status == .unprocessableContent)
            #expect((unmanaged.json["error"] as? [String: Any])?["field"] as? String == "role")
            #expect(try apps(console).count == 2)
        }
    }
}
