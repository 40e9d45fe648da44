@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

@Suite struct SignInTests {
    @Test func signingInLeadsToTheDashboardAndSigningOutEndsTheSession() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            let signIn = try await browser.signIn("Ann@Example.com ", password: TestConsole.password)
            #expect(signIn.status == .seeOther)
            #expect(signIn.location == "/dashboard")
            let cookie = try #require(signIn.headers[values: .setCookie].first { $0.hasPrefix("pc_session=") })
            #expect(cookie.contains("HttpOnly"))
            #expect(cookie.contains("SameSite=Lax"))

            let dashboard = try await browser.get("/dashboard")
            #expect(dashboard.status == .ok)
            #expect(dashboard.body.contains("ann@example.com"))
            #expect(!dashboard.body.contains("signed in"), "the dashboard's feed leaves sign-ins to the audit log")
            #expect(try await console.services.database.read { try $0.count(AuditEvent.query().filter("action", .equal, "user.signed_in")) } == 1)

            let sessionToken = try #require(browser.cookies["pc_session"])
            let signOut = try await browser.post("/sign-out")
            #expect(signOut.location == "/sign-in")
            #expect(browser.cookies["pc_session"] == nil)
            #expect(try console.services.database.readBlocking { try $0.count(UserSession.query()) } == 0)

            // The old cookie no longer opens anything.
            let replay = try await browser.send("/dashboard", method: .get, headers: [.cookie: "pc_session=\(sessionToken)"])
            #expect(replay.status == .seeOther)
            #expect(replay.location?.hasPrefix("/sign-in") == true)
        }
    }

    @Test func aWrongPasswordAndAnUnknownEmailGetTheSameAnswer() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .viewer)
        try await console.test { client in
            let browser = Browser(client)
            let wrong = try await browser.signIn("ann@example.com", password: "not the password")
            let unknown = try await browser.signIn("nobody@example.com", password: "not the password")
            #expect(wrong.status == .unprocessableContent)
            #expect(unknown.status == .unprocessableContent)
            let message = "The email or password is not right."
            #expect(wrong.body.contains(message))
            #expect(unknown.body.contains(message))
            // The typed email is kept; the password is not echoed.
            #expect(wrong.body.contains(#"value="ann@example.com""#))
            #expect(!wrong.body.contains("not the password"))
            #expect(browser.cookies["pc_session"] == nil)
        }
    }

    @Test func emptyFieldsAreReportedBesideThem() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let browser = Browser(client)
            let page = try await browser.signIn("not-an-email", password: "")
            #expect(page.status == .unprocessableContent)
            #expect(page.body.contains(#"id="email-error""#))
            #expect(page.body.contains("Enter your password."))
        }
    }

    @Test func repeatedFailuresMakeTheNextAttemptWaitEvenWithTheRightPassword() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            for _ in 1...5 {
                let attempt = try await browser.signIn("ann@example.com", password: "guess guess guess")
                #expect(attempt.status == .unprocessableContent)
            }
            let blocked = try await browser.signIn("ann@example.com", password: TestConsole.password)
            #expect(blocked.status == .tooManyRequests)
            #expect(blocked.headers[.retryAfter] == "30")
            #expect(blocked.body.contains("Try again in 30 seconds"))

            // The same for an address with no account: the throttle reveals nothing.
            for _ in 1...5 { try await browser.signIn("ghost@example.com", password: "guess guess guess") }
            #expect(try await browser.signIn("ghost@example.com", password: "guess").status == .tooManyRequests)

            console.clock.advance(by: 31)
            let allowed = try await browser.signIn("ann@example.com", password: TestConsole.password)
            #expect(allowed.status == .seeOther)
            #expect(try console.services.database.readBlocking { try $0.count(SignInFailure.query().filter("email", .equal, "ann@example.com")) } == 0)
        }
    }

    @Test func aPostWithoutTheFormTokenIsRefused() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.get("/sign-in")
            let forged = try await browser.post("/sign-in", ["email": "ann@example.com", "password": TestConsole.password], csrf: "forged")
            #expect(forged.status == .forbidden)
            #expect(forged.body.contains("This form has expired"))
            #expect(browser.cookies["pc_session"] == nil)
        }
    }

    @Test func theNextParameterStaysOnThisSite() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.get("/sign-in")
            let offsite = try await browser.post("/sign-in", ["email": "ann@example.com", "password": TestConsole.password, "next": "//evil.example/"])
            #expect(offsite.location == "/dashboard")

            let signedOut = Browser(client)
            let redirect = try await signedOut.get("/users")
            #expect(redirect.location == "/sign-in?next=%2Fusers")
            try await signedOut.get("/sign-in?next=%2Fusers")
            let back = try await signedOut.post("/sign-in", ["email": "ann@example.com", "password": TestConsole.password, "next": "/users"])
            #expect(back.location == "/users")
        }
    }

    @Test func sessionsExpire() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .viewer)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            #expect(try await browser.get("/dashboard").status == .ok)
            console.clock.advance(by: 12 * 3600 + 1)
            let expired = try await browser.get("/dashboard")
            #expect(expired.status == .seeOther)
            #expect(expired.location?.hasPrefix("/sign-in") == true)
        }
    }
}
