@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import Storage
import Testing

@Suite struct ServerTests {
    @Test func healthCheckAnswersJSON() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let response = try await Browser(client).get("/healthz")
            #expect(response.status == .ok)
            #expect(response.body == #"{"status":"ok"}"#)
        }
    }

    @Test func pagesCarrySecurityHeaders() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            for path in ["/sign-in", "/no-such-page", "/css/app.css"] {
                let page = try await Browser(client).get(path)
                #expect(page.headers[.contentSecurityPolicy]?.contains("default-src 'self'") == true, "\(path)")
                #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
                #expect(page.headers[.xContentTypeOptions] == "nosniff")
                #expect(page.headers[.init("Referrer-Policy")!] == "same-origin")
            }
        }
    }

    @Test func unknownPagesGetAFriendly404AndUnknownAPIRoutesAJSONError() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let browser = Browser(client)
            let page = try await browser.get("/no-such-page")
            #expect(page.status == .notFound)
            #expect(page.headers[.contentType]?.hasPrefix("text/html") == true)
            #expect(page.body.contains("Page not found"))
            #expect(page.body.contains(#"href="/dashboard""#))

            let api = try await browser.get("/api/v1/nothing")
            #expect(api.status == .notFound)
            // Every error has the same shape: code, message, and field (null when no field is at fault).
            let body = try JSONDecoder().decode([String: [String: String?]].self, from: Data(api.body.utf8))
            #expect(body["error"]?["code"] == "not_found")
            #expect(body["error"]?.keys.contains("field") == true && body["error"]?["field"] == .some(nil))
        }
    }

    @Test func staticFilesAreServedFromTheirFoldersOnly() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let css = try await Browser(client).get("/css/app.css")
            #expect(css.status == .ok)
            #expect(css.body.contains(":root"))
            let script = try await Browser(client).get("/js/simulator.js")
            #expect(script.status == .ok)
            for path in ["/css/missing.css", "/css/../Package.swift", "/app.css", "/js"] {
                let answer = try await Browser(client).get(path)
                // A path climbing out of the folder is a 400 from the file middleware.
                #expect([.notFound, .badRequest].contains(answer.status), "\(path) \(answer.status)")
                #expect(!answer.body.contains("PackageDescription"))
            }
        }
    }

    /// HEAD used to answer 405 while the 405's own Allow header listed HEAD.
    @Test func headAnswersWhereverGetDoesWithoutABody() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            for path in ["/healthz", "/sign-in", "/css/app.css", "/api/openapi.json"] {
                let response = try await client.execute(uri: path, method: .head)
                #expect(response.status == .ok, "\(path)")
                #expect(response.body.readableBytes == 0, "\(path)")
            }
            let trace = try await client.execute(uri: "/sign-in", method: .trace)
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow] == "GET, HEAD, POST")
        }
    }

    /// Each kind of caller has its own middleware: the health check and the APIs set no
    /// browser cookie, pages do (the signed-out CSRF cookie).
    @Test func onlyPagesGetBrowserCookies() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            for path in ["/healthz", "/api/openapi.json", "/api/v1/profiles", "/api/v1/device/policy", "/css/app.css"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.headers[values: .setCookie].isEmpty, "\(path)")
            }
            // The API document is open whatever token comes with the request (a device's, say).
            let document = try await client.execute(uri: "/api/openapi.json", method: .get, headers: [.authorization: "Bearer pcd_not-an-api-token"])
            #expect(document.status == .ok)
            let page = try await client.execute(uri: "/sign-in", method: .get)
            #expect(page.headers[values: .setCookie].contains { $0.hasPrefix("pc_csrf=") })
        }
    }

    @Test func aServerFaultShowsA500PageWithTheRequestIDThatIsLogged() async throws {
        let renderer = try await PageRenderer.load(
            directory: TestConsole.packageRoot.appendingPathComponent("Templates").path,
            cookies: CookieJar(alwaysSecure: false), required: ["layout", "error"])
        let logs = LogCapture()
        let router = Router(context: AppRequestContext.self)
        router.add(middleware: ErrorPageMiddleware(renderer: renderer))
        struct Broken: Error {}
        router.get("/broken") { _, _ -> Response in throw Broken() }
        router.get("/api/broken") { _, _ -> Response in throw Broken() }
        let app = Application(router: router, logger: Logger(label: "test") { _ in logs })
        try await app.test(.router) { client in
            let page = try await Browser(client).get("/broken")
            #expect(page.status == .internalServerError)
            #expect(page.body.contains("Something went wrong"))
            let start = try #require(page.body.range(of: #"<code id="request-id">"#))
            let requestID = String(page.body[start.upperBound...].prefix { $0 != "<" })
            #expect(!requestID.isEmpty)
            #expect(logs.messages.contains { $0.contains(requestID) && $0.contains("Broken") })

            let api = try await Browser(client).get("/api/broken")
            #expect(api.status == .internalServerError)
            #expect(api.body.contains(#""code":"internal_error""#))
            #expect(api.body.contains(#""requestID""#))
        }
    }

    @Test func demoStartCreatesTheThreeDemoAccountsAndPrintsTheirPasswords() async throws {
        let console = try await TestConsole.make(demo: true)
        let lobbyKiosk = try #require(try console.services.database.readBlocking {
            try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Lobby kiosk 01"))
        })
        let notes = console.console.startupNotes.joined(separator: "\n")
        for (email, _) in Bootstrap.demoAccounts {
            #expect(notes.contains(email))
        }
        let line = try #require(console.console.startupNotes.first { $0.contains("viewer@example.com") })
        let password = try #require(line.components(separatedBy: "password: ").last)
        try await console.test { client in
            let browser = Browser(client)
            let signIn = try await browser.signIn("viewer@example.com", password: password)
            #expect(signIn.location == "/tour", "a demo start opens the tour at the first sign-in")
            let users = try await browser.get("/users")
            #expect(users.status == .forbidden)
            // The demo tells its stories with real data.
            let profiles = try await browser.get("/profiles")
            #expect(profiles.body.contains("Lobby kiosk lockdown"))
            #expect(profiles.body.contains("Clinic data protection"))
            let devices = try await browser.get("/devices?group=2")
            #expect(devices.body.contains("Lobby kiosk 01"))
            let kiosk = try await browser.get("/devices/\(lobbyKiosk.id)")
            #expect(kiosk.body.contains("Locks to com.example.checkin"))
        }
    }

    @Test func firstStartWithoutDemoCreatesOneAdminWithAOneTimePassword() async throws {
        let console = try await TestConsole.make(keepFirstAdmin: true)
        let notes = console.console.startupNotes
        let line = try #require(notes.first { $0.contains("one-time password:") })
        let password = try #require(line.components(separatedBy: "one-time password: ").last)
        try await console.test { client in
            let browser = Browser(client)
            let signIn = try await browser.signIn("admin@example.com", password: password)
            #expect(signIn.location == "/account/password")
        }
    }
}

/// Collects log lines (with their metadata) so a test can find the request id in them.
final class LogCapture: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    var messages: [String] { lock.withLock { lines } }

    func log(event: LogEvent) {
        let all = metadata.merging(event.metadata ?? [:]) { $1 }
        lock.withLock { lines.append("\(event.message) \(all)") }
    }
}

@Suite struct BadAddressTests {
    @Test func anIdThatIsNotANumberGetsAPlainMessageWithoutInternalNames() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("val@example.com", role: .viewer)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("val@example.com", password: TestConsole.password)
            let page = try await browser.get("/profiles/abc")
            #expect(page.status == .badRequest)
            #expect(page.body.contains("That address is not valid"))
            #expect(!page.body.contains("RecordID"))
            #expect(try await browser.get("/profiles/999").status == .notFound)
        }
    }
}
