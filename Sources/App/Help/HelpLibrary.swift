import Domain
import Foundation
import Markdown

/// The console's help: Markdown files under `docs/help` (one per payload kind under
/// `payloads/`), rendered once at start-up with Discount and the sanitiser. Start-up refuses a
/// folder without a page for every payload kind, so a kind cannot ship without its help.
struct HelpLibrary: Sendable {
    struct Page: Sendable {
        /// The first line's `# ` heading.
        let title: String
        /// Everything below the title, its headings one level lower, for a panel beside a form
        /// whose own heading names the topic.
        let panelHTML: String
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
        let body = lines.dropFirst().map { $0.hasPrefix("#") ? "#" + $0 : $0 }.joined(separator: "\n")
        return Page(title: first.dropFirst(2).trimmingCharacters(in: .whitespaces), panelHTML: MarkdownRenderer.html(body))
    }
}
