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
                let path = route.path.replacingOccurrences(of: "{id}", with: "1")
                let page = route.method == .get ? try await browser.get(path) : try await browser.post(path)
                #expect(page.status == .seeOther, "\(route.method) \(route.path)")
                #expect(page.location?.hasPrefix("/sign-in") == true, "\(route.method) \(route.path)")
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
            for email in ["val@example.com", "hal@example.com"] {
                let browser = Browser(client)
                try await browser.signIn(email, password: TestConsole.password)
                try await browser.get("/dashboard")
                for route in adminRoutes {
                    let path = route.path.replacingOccurrences(of: "{id}", with: admin.id!.description)
                    let page = route.method == .get
                        ? try await browser.get(path)
                        : try await browser.post(path, ["email": "new@example.com", "role": "viewer"])
                    #expect(page.status == .forbidden, "\(email) \(route.method) \(route.path)")
                }
            }
        }
        let users = try console.services.database.read { try $0.fetch(User.query()) }
        #expect(users.count == 3)
        #expect(users.first { $0.email == "ann@example.com" }?.role == .admin)
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
