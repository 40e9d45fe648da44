@testable import App
import Domain
import Foundation
import HTTPTypes
import Testing

/// Templates name the pages they link to (`{{site.devices}}`) instead of typing addresses, so
/// a moved page changes in its declaration only. A name a template uses but `SiteLinks` lacks
/// would render an empty link; these tests find it before a person does.
@Suite struct SiteLinksTests {
    static let templates: [(name: String, text: String)] = {
        let folder = TestConsole.packageRoot.appendingPathComponent("Templates")
        let files = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".mustache") }.sorted().compactMap { file in
            (try? String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)).map { (file, $0) }
        }
    }()

    static func matches(of pattern: String, in text: String) -> [String] {
        let regex = try! NSRegularExpression(pattern: pattern)
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    @Test func everySiteNameATemplateUsesIsAPage() {
        #expect(!Self.templates.isEmpty)
        for template in Self.templates {
            for name in Self.matches(of: #"\{\{[#/]?site\.(\w+)\}\}"#, in: template.text) where name != SiteLinks.helpTopic {
                #expect(SiteLinks.byName[name] != nil, "\(template.name) links to site.\(name), which SiteLinks does not name")
            }
        }
    }

    @Test func everyHelpTopicATemplateLinksToIsAHelpPage() async throws {
        let console = try await TestConsole.make()
        let topics = Set(console.services.help.contents.map(\.topic))
        var linked = 0
        for template in Self.templates {
            for topic in Self.matches(of: #"\{\{#site\.helpTopic\}\}([^{]+)\{\{/site\.helpTopic\}\}"#, in: template.text) {
                linked += 1
                #expect(topics.contains(topic), "\(template.name) links to the help topic \(topic), which has no page")
            }
        }
        #expect(linked > 0)
    }

    @Test func noTemplateTypesTheAddressOfAPage() {
        // Stylesheets and scripts are files, not pages: their addresses stay in the templates.
        for template in Self.templates {
            let typed = Self.matches(of: #"(?:href|action|formaction|src)="(/[^"{]*)""#, in: template.text)
                .filter { !$0.hasPrefix("/css/") && !$0.hasPrefix("/js/") }
            #expect(typed.isEmpty, "\(template.name) types \(typed)")
        }
    }

    @Test func aPageRendersItsSiteLinksAndHelpTopics() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let devices = try await admin.get(Site.Devices.list.link())
            #expect(devices.body.contains(#"<form method="post" action="/sign-out""#))
            #expect(devices.body.contains(#"href="/devices/new" id="add-device""#))
            #expect(devices.body.contains(#"<form method="get" action="/devices" class="card filter-strip device-filters""#))
            #expect(!devices.body.contains(#"href="""#) && !devices.body.contains(#"action="""#))
            let missing = try await admin.get("/no-such-page")
            #expect(missing.status == .notFound && missing.body.contains(#"href="/dashboard""#))
            let signedOut = try await Browser(client).get(Site.Accounts.signInForm.link())
            #expect(signedOut.body.contains(#"action="/sign-in""#))
        }
    }
}
