import Domain
import Foundation
import Markdown

/// The console's help: Markdown files under `docs/help` (one per payload kind under
/// `payloads/`), rendered once at start-up with Discount and the sanitiser. Start-up refuses a
/// folder without a page for every payload kind, so a kind cannot ship without its help.
struct HelpLibrary: Sendable {
    struct Page: Sendable {
        let topic: String
        /// The first line's `# ` heading.
        let title: String
        /// Everything below the title, its headings one level lower, for a panel beside a form
        /// whose own heading names the topic.
        let panelHTML: String
        /// Everything below the title as a page of its own, under the title as its `h1`.
        let pageHTML: String
        /// The Markdown below the title, for searching.
        let text: String
    }

    enum LoadError: Error, CustomStringConvertible {
        case missingPages(directory: String, topics: [String])
        case untitled(topic: String)

        var description: String {
            switch self {
            case .missingPages(let directory, let topics):
                "Help pages missing from \(directory): \(topics.map { $0 + ".md" }.joined(separator: ", ")). Start the console from the project folder or pass --help-pages."
            case .untitled(let topic):
                "The help page \(topic).md must start with a \"# Title\" line."
            }
        }
    }

    let pages: [String: Page]

    /// Every kind's page: what start-up insists on.
    static var requiredTopics: [String] { PayloadKind.allCases.map(topic(for:)) }

    static func topic(for kind: PayloadKind) -> String { "payloads/\(kind.rawValue)" }

    func page(for kind: PayloadKind) -> Page? { pages[Self.topic(for: kind)] }

    /// Every page, the console's own topics first, then the payloads, each by title.
    var contents: [Page] {
        pages.values.sorted { ($0.topic.hasPrefix("payloads/") ? 1 : 0, $0.title) < ($1.topic.hasPrefix("payloads/") ? 1 : 0, $1.title) }
    }

    /// The pages whose title or text holds every word of `query` (case and accents ignored),
    /// in `contents` order, each with the first line that holds the first word.
    func search(_ query: String) -> [(page: Page, excerpt: String)] {
        let words = query.split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else { return [] }
        let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive]
        return contents.compactMap { page in
            let haystack = page.title + "\n" + page.text
            guard words.allSatisfy({ haystack.range(of: $0, options: options) != nil }) else { return nil }
            let line = page.text.split(separator: "\n").first { $0.range(of: words[0], options: options) != nil }
            let excerpt = line.map { String($0).replacingOccurrences(of: #"[*`#|]"#, with: "", options: .regularExpression)
                .trimmingCharacters(in: .whitespaces) } ?? ""
            return (page, excerpt.count > 200 ? String(excerpt.prefix(200)) + "…" : excerpt)
        }
    }

    static func load(directory: String, required: [String] = requiredTopics) throws -> HelpLibrary {
        let root = URL(fileURLWithPath: directory, isDirectory: true).standardizedFileURL
        let files = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        var pages: [String: Page] = [:]
        for file in files where file.pathExtension == "md" {
            let relative = file.standardizedFileURL.path.dropFirst(root.path.count + 1)
            let topic = String(relative.dropLast(3))
            pages[topic] = try page(topic: topic, markdown: String(contentsOf: file, encoding: .utf8))
        }
        let missing = required.filter { pages[$0] == nil }
        guard missing.isEmpty else { throw LoadError.missingPages(directory: directory, topics: missing) }
        return HelpLibrary(pages: pages)
    }

    static func page(topic: String, markdown: String) throws -> Page {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        guard let first = lines.first, first.hasPrefix("# ") else { throw LoadError.untitled(topic: topic) }
        // Our own files, without code blocks: a line starting with "#" is a heading.
        let text = lines.dropFirst().joined(separator: "\n")
        let demoted = lines.dropFirst().map { $0.hasPrefix("#") ? "#" + $0 : $0 }.joined(separator: "\n")
        return Page(topic: topic, title: first.dropFirst(2).trimmingCharacters(in: .whitespaces), panelHTML: MarkdownRenderer.html(demoted),
                    pageHTML: MarkdownRenderer.html(text), text: text)
    }
}
