@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// A session cookie that names no live session — ended in another tab, expired, its person
/// removed — is cleared from the browser, and signing out with it simply signs out.
@Suite struct StaleSessionCookieTests {
    func staleBrowser(_ console: TestConsole, _ client: any TestClientProtocol) async throws -> Browser {
        let browser = Browser(client)
        try await browser.signIn("ann@example.com", password: TestConsole.password)
        _ = try await browser.get("/dashboard")
        try await console.services.database.write { _ = try $0.execute("DELETE FROM sessions") }
        return browser
    }

    func clearsSession(_ page: Browser.Page) -> Bool {
        page.headers[values: .setCookie].contains { $0.hasPrefix("pc_session=;") && $0.contains("Max-Age=0") }
    }

    @Test func signingOutWithAnEndedSessionClearsTheCookie() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = try await staleBrowser(console, client)
            // The page's form still carries the ended session's token, which no longer matches.
            let signOut = try await browser.post("/sign-out", csrf: "token-of-the-ended-session")
            #expect(signOut.status == .seeOther && signOut.location == "/sign-in")
            #expect(clearsSession(signOut))
            #expect(browser.cookies["pc_session"] == nil)
        }
    }

    @Test func anyAnswerToAStaleCookieClearsIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = try await staleBrowser(console, client)
            let redirected = try await browser.get("/devices")
            #expect(redirected.status == .seeOther)
            #expect(clearsSession(redirected), "a redirect that sets its own cookies clears the stale one too")
        }
    }
}
