@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

@Suite struct AccessTests {
    @Test func everyRoleRouteSendsSignedOutVisitorsToSignIn() async throws {
        let console = try await TestConsole.make()
        let routes = console.routes
        try await console.test { client in
            let browser = Browser(client)
            try await browser.get("/sign-in")
            for route in routes where route.access != .anyone {
                let path = Self.concrete(route.path, id: "1")
                let page = route.method == .post ? try await browser.post(path) : try await browser.send(path, method: route.method)
                if route.access == .mdmDevice {
                    // A device that does not sign its message is refused in plain text.
                    #expect(page.status == .unauthorized, "\(route.method) \(route.path)")
                } else if route.path.hasPrefix("/api/") {
                    // Scripts get a JSON 401, not a redirect to a form.
                    #expect(page.status == .unauthorized, "\(route.method) \(route.path)")
                    #expect(page.body.contains(#""code":"unauthenticated""#), "\(route.method) \(route.path)")
                } else {
                    #expect(page.status == .seeOther, "\(route.method) \(route.path)")
                    #expect(page.location?.hasPrefix("/sign-in") == true, "\(route.method) \(route.path)")
                }
            }
        }
    }

    @Test func viewerAndHelpdeskGetForbiddenOnEveryAdminRouteEvenPostingDirectly() async throws {
        let console = try await TestConsole.make()
        let admin = try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("val@example.com", role: .viewer)
        try await console.addUser("hal@example.com", role: .helpdesk)
        let adminRoutes = console.routes.filter { $0.access == .role(.admin) }
        #expect(!adminRoutes.isEmpty)
        try await console.test { client in
            for (email, role) in [("val@example.com", Role.viewer), ("hal@example.com", .helpdesk)] {
                let browser = Browser(client)
                try await browser.signIn(email, password: TestConsole.password)
                try await browser.get("/dashboard")
                let token = try await APITokenStore(database: console.services.database, now: { Date() })
                    .create(name: "script", role: role, by: .system).token
                for route in adminRoutes {
                    let path = Self.concrete(route.path, id: admin.id.description)
                    let page: Browser.Page
                    if route.path.hasPrefix("/api/") {
                        page = try await browser.send(path, method: route.method, body: #"{"name": "x", "groupID": 1}"#,
                                                      contentType: "application/json", headers: [.authorization: "Bearer \(token)"])
                    } else if route.method == .get {
                        page = try await browser.get(path)
                    } else {
                        page = try await browser.post(path, ["email": "new@example.com", "role": "viewer", "name": "x"])
                    }
                    #expect(page.status == .forbidden, "\(email) \(route.method) \(route.path)")
                }
            }
        }
        let users = try console.services.database.readBlocking { try $0.fetch(User.query()) }
        #expect(users.count == 3)
        #expect(users.first { $0.email == "ann@example.com" }?.role == .admin)
    }

    /// A route path with its parameters filled in.
    static func concrete(_ path: String, id: String) -> String {
        path.replacingOccurrences(of: "{id}", with: id).replacingOccurrences(of: "{number}", with: "1")
            .replacingOccurrences(of: "{group}", with: "1").replacingOccurrences(of: "{kind}", with: "logging")
    }

    @Test func theNavigationShowsOnlyWhatTheRoleMayOpen() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("val@example.com", role: .viewer)
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            #expect(!(try await viewer.get("/dashboard").body.contains(#"href="/users""#)))
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            #expect(try await admin.get("/dashboard").body.contains(#"href="/users""#))
        }
    }
}
