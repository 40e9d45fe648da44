import Domain
import Foundation
import Hummingbird

/// `/help`: every help page, searchable, and each page on its own (`/help/{topic}`,
/// `/help/payloads/{kind}`), rendered from `docs/help` at start-up.
struct HelpController {
    let help: HelpLibrary
    let renderer: PageRenderer

    struct Entry {
        let title: String
        let path: String
        let excerpt: String
    }

    struct IndexView {
        let query: String
        let entries: [Entry]
        let isSearch: Bool
        let isEmpty: Bool
    }

    struct PageView {
        let title: String
        let html: String
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Help.index, use: index)
        routes.on(Site.Help.topic) { topic, request, context in
            try page(topic, request: request, context: context)
        }
        routes.on(Site.Help.payload) { kind, request, context in
            try page("payloads/" + kind, request: request, context: context)
        }
    }

    @Sendable func index(request: Request, context: SignedInContext) async throws -> Response {
        let query = (request.uri.formParameters["q"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces)
        let entries: [Entry] = query.isEmpty
            ? help.contents.map { Entry(title: $0.title, path: Site.Help.page($0.topic), excerpt: Self.firstSentence($0.text)) }
            : help.search(query).map { Entry(title: $0.page.title, path: Site.Help.page($0.page.topic), excerpt: $0.excerpt) }
        let view = IndexView(query: query, entries: entries, isSearch: !query.isEmpty, isEmpty: entries.isEmpty)
        return try renderer.page("help/index", title: "Help", model: view, request: request, context: context)
    }

    private func page(_ topic: String, request: Request, context: SignedInContext) throws -> Response {
        guard let page = help.pages[topic] else { throw HTTPError(.notFound) }
        return try renderer.page("help/page", title: page.title, model: PageView(title: page.title, html: page.pageHTML),
                                          request: request, context: context)
    }

    /// The page's first paragraph, for the index.
    static func firstSentence(_ text: String) -> String {
        text.split(separator: "\n").first { !$0.trimmingCharacters(in: .whitespaces).isEmpty && !$0.hasPrefix("#") }
            .map { String($0).trimmingCharacters(in: .whitespaces) } ?? ""
    }
}
