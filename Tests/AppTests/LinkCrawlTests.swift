import Domain
import Foundation
import HTTPTypes
import Testing

/// Every address a page hands the browser — links, images, form actions — leads somewhere: an
/// admin walks the demo console from the dashboard and no link, image or form ends in a 404 or
/// a server error. View models build these addresses with `Paths`; this is what checks that
/// `Paths` and the routes agree.
@Suite struct LinkCrawlTests {
    /// `href`, `src` and `action` values that are paths on this console.
    static func addresses(in html: String) -> [(attribute: String, path: String)] {
        let pattern = try! NSRegularExpression(pattern: #"\b(href|src|action)="(/[^"]*)""#)
        let range = NSRange(html.startIndex..., in: html)
        return pattern.matches(in: html, range: range).map { match in
            let attribute = String(html[Range(match.range(at: 1), in: html)!])
            let path = String(html[Range(match.range(at: 2), in: html)!]).replacingOccurrences(of: "&amp;", with: "&")
            // A browser keeps the fragment to itself.
            return (attribute, String(path.prefix { $0 != "#" }))
        }
    }

    @Test func everyLinkImageAndFormOnTheDemoConsoleLeadsSomewhere() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            var queue = ["/dashboard"]
            var seen: Set<String> = ["/dashboard"]
            var broken: [String] = []
            var pagesRead = 0
            while !queue.isEmpty, pagesRead < 400 {
                let page = queue.removeFirst()
                let answer = try await browser.get(page)
                pagesRead += 1
                guard answer.headers[.contentType]?.hasPrefix("text/html") == true else { continue }
                for (attribute, path) in Self.addresses(in: answer.body) where !seen.contains(attribute + path) {
                    seen.insert(attribute + path)
                    if path == "/sign-out" { continue }
                    if attribute == "action" {
                        // A form's address: OPTIONS, which no route takes, answers 405 where a route
                        // exists for another method and 404 where none does.
                        let probe = try await browser.send(path, method: .options)
                        if probe.status == .notFound || probe.status.code >= 500 { broken.append("form on \(page) → \(path): \(probe.status.code)") }
                    } else if seen.insert(path).inserted || attribute == "src" {
                        queue.append(path)
                    }
                }
                if answer.status == .notFound || answer.status.code >= 500 { broken.append("\(page): \(answer.status.code)") }
            }
            #expect(pagesRead > 40, "the walk must reach the profiles, devices and simulators")
            #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
        }
    }
}
