@testable import App
import Domain
import Foundation
import HTTPTypes
import Signing
import Storage
import Testing

/// The signing key is in the database now, beside everything pages and the API read: no
/// answer of any route — pages an admin reaches, every GET of the route table through pages,
/// the API and the device API, a refused upload — and no audit entry carries any part of it.
@Suite struct SigningKeyExposureTests {
    /// Runs of sixteen or more letters and digits from the key's base64 lines: whichever way an
    /// answer escapes `/`, `+` or line ends (HTML, JSON, CSV), a leaked key still shows them.
    static func fragments(of pem: String) -> [String] {
        pem.split(separator: "\n").filter { !$0.hasPrefix("-----") }
            .flatMap { $0.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) } }
            .filter { $0.count >= 16 }.map(String.init)
    }

    @Test func noAnswerOfAnyRouteAndNoAuditEntryCarriesThePrivateKey() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("ann@example.com", role: .admin)
        let identity = try SigningIdentity.generateSelfSigned(commonName: "Sweep Profiles", organization: "Example Corp")
        try await console.services.signing.replace(with: identity, by: .system)
        let fragments = Self.fragments(of: identity.privateKeyPEM)
        #expect(fragments.count > 20, "the key's body is what is looked for")
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "sweep", role: .admin, by: .system).token
        let imageKey = try await console.services.database.read { try $0.scalar("SELECT key FROM images ORDER BY id LIMIT 1", as: String.self) } ?? "none"
        let routes = console.routes

        let (answers, leaks) = try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await DeviceAPITests().enroll(admin, name: "Sweep iPad", supervised: true, group: nil, app: nil, console: console)
            var answers = 0
            var leaks: [String] = []
            func check(_ what: String, _ page: Browser.Page) {
                answers += 1
                if page.body.contains("PRIVATE KEY-----") || fragments.contains(where: page.body.contains) { leaks.append(what) }
            }

            // Every GET of the route table, with ids that exist in the demo.
            // (The simulator page's event stream holds open for a minute and sends revision numbers only.)
            for route in routes where route.method == .get && route.path != "/simulator/{id}/events" {
                var path = AccessTests.concrete(route.path, id: "1")
                    .replacingOccurrences(of: "{udid}", with: device.udid).replacingOccurrences(of: "{key}", with: imageKey)
                    .replacingOccurrences(of: "{note}", with: "1").replacingOccurrences(of: "{topic}", with: "logs")
                if route.path.hasSuffix("/events") { path += "?timeout=1" }
                let page: Browser.Page
                switch route.access {
                case .device: page = try await admin.send(path, method: .get, headers: [.authorization: "Bearer \(device.token)"])
                case _ where path.hasPrefix("/api/"): page = try await admin.send(path, method: .get, headers: [.authorization: "Bearer \(token)"])
                default: page = try await admin.get(path)
                }
                check("GET \(path) (\(page.status.code))", page)
            }

            // Every page an admin reaches by its links, downloads included.
            var queue = ["/dashboard", "/signing", "/audit", "/audit.csv"]
            var seen = Set(queue)
            while !queue.isEmpty, answers < 600 {
                let path = queue.removeFirst()
                let page = try await admin.get(path)
                check("GET \(path)", page)
                guard page.headers[.contentType]?.hasPrefix("text/html") == true else { continue }
                for (attribute, link) in LinkCrawlTests.addresses(in: page.body)
                where attribute != "action" && link != "/sign-out" && !link.hasSuffix("/events") && seen.insert(link).inserted {
                    queue.append(link)
                }
            }

            // A refused upload shows the page again without what was sent.
            let other = try SigningIdentity.generateSelfSigned(commonName: "Other", organization: "Other")
            try await admin.get("/signing")
            let refused = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(other.certificatePEM.utf8)), "privateKey": ("key.pem", Array(identity.privateKeyPEM.utf8)),
            ])
            #expect(refused.status == .unprocessableContent)
            check("POST /signing refused", refused)
            return (answers, leaks)
        }
        #expect(answers > 150, "the sweep must reach the route table and the demo's pages")
        #expect(leaks.isEmpty, "answers carrying the private key:\n\(leaks.joined(separator: "\n"))")

        let audit = try await console.services.database.read { try $0.fetch(AuditEvent.query()) }
        let entries = audit.map { [$0.subject, $0.before ?? "", $0.after ?? ""].joined(separator: " ") }
        #expect(!entries.contains { entry in fragments.contains(where: entry.contains) })
    }
}
