@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

/// The help pages: every topic listed and searchable, each page on its own, every payload
/// form linking to its page.
@Suite struct HelpTests {
    @Test func everyoneFindsAndReadsTheHelpPages() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("vi@example.com", role: .viewer)
        try await console.test { client in
            let viewer = Browser(client)
            try await viewer.signIn("vi@example.com", password: TestConsole.password)
            let index = try await viewer.get("/help")
            #expect(index.status == .ok)
            for topic in ["/help/roles", "/help/logs-and-feedback", "/help/simulator", "/help/api"] + PayloadKind.allCases.map({ "/help/payloads/\($0.rawValue)" }) {
                #expect(index.body.contains("href=\"\(topic)\""), "\(topic) is listed")
                #expect(try await viewer.get(topic).status == .ok, "\(topic) opens")
            }
            let roles = try await viewer.get("/help/roles")
            #expect(roles.body.contains("<h1>Roles</h1>") && roles.body.contains("<table>"))

            let found = try await viewer.get("/help?q=retention+arrive")
            #expect(found.body.contains("href=\"/help/logs-and-feedback\"") && !found.body.contains("href=\"/help/roles\""))
            let nothing = try await viewer.get("/help?q=quokka")
            #expect(nothing.body.contains("No help page mentions “quokka”"))
            let missing = try await viewer.get("/help/nothing-here")
            #expect(missing.status == .notFound, "\(missing.status) \(missing.body.prefix(300))")
            #expect(try await viewer.get("/help/..%2Fpayloads%2Fdlp").status == .notFound)
        }
    }
}
