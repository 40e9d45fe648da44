import Foundation
import Markdown
import Testing

@Suite struct MarkdownRendererTests {
    @Test func commonMarkdownRenders() {
        let html = MarkdownRenderer.html("# Kiosks\n\nLocks the **lobby** iPads.\n\n- one\n- two\n\n[Docs](https://example.com/docs)")
        #expect(html.contains("<h1>Kiosks</h1>"))
        #expect(html.contains("<strong>lobby</strong>"))
        #expect(html.contains("<li>one</li>"))
        #expect(html.contains(#"<a href="https://example.com/docs" rel="nofollow noopener">Docs</a>"#))
    }

    @Test func rawHTMLInTheSourceIsEscapedNotRun() {
        let html = MarkdownRenderer.html("Hello <script>alert(1)</script> and <img src=x onerror=alert(1)>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img"))
        #expect(html.contains("&lt;script"))
    }

    @Test func javascriptLinksLoseTheirTarget() {
        let html = MarkdownRenderer.html("[click](javascript:alert(1)) and [ok](/profiles)")
        #expect(!html.lowercased().contains("href=\"javascript"))
        #expect(html.components(separatedBy: "<a ").count == 2)
        #expect(html.contains(#"href="/profiles""#))
    }

    @Test func emptyInputGivesNothing() {
        #expect(MarkdownRenderer.html("") == "")
    }

    @Test func parallelRendersAgree() async {
        let source = "## Title\n\nSome *text* with `code`.\n"
        let expected = MarkdownRenderer.html(source)
        let results = await withTaskGroup(of: String.self) { group in
            for _ in 0..<8 { group.addTask { MarkdownRenderer.html(source) } }
            return await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(results.allSatisfy { $0 == expected })
    }
}

/// What a device shows for a profile's description: the words, not the Markdown.
@Suite struct MarkdownPlainTextTests {
    @Test func emphasisAndCodeLoseTheirMarks() {
        #expect(MarkdownRenderer.plainText("Keeps the **lobby iPads** in `Lobby Check-In`, *always*.") == "Keeps the lobby iPads in Lobby Check-In, always.")
    }

    @Test func paragraphsAndListItemsKeepTheirLines() {
        let text = MarkdownRenderer.plainText("# Kiosks\n\nFirst paragraph.\n\n- one\n- two\n\nLast.")
        #expect(text == "Kiosks\nFirst paragraph.\n• one\n• two\nLast.")
    }

    @Test func linksKeepTheirAddressAndEntitiesAreDecoded() {
        #expect(MarkdownRenderer.plainText("See [the guide](https://example.com/a?b=1&c=2) & <ask> \"us\"")
                == "See the guide (https://example.com/a?b=1&c=2) & <ask> \"us\"")
        #expect(MarkdownRenderer.plainText("Visit https://example.com") == "Visit https://example.com", "an address shown as itself is not repeated")
        #expect(MarkdownRenderer.plainText("") == "")
    }
}
