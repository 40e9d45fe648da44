import Foundation
import Domain
import Hummingbird
import Mustache

/// Renders a page template, then wraps it in the shared layout (navigation, flash message,
/// signed-in user). Mustache escapes every `{{value}}`; only our own rendered HTML goes
/// through `{{{triple}}}`.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let cookies: CookieJar
    /// A `--demo` start: the navigation leads to the tour of its stories.
    var showsTour = false

    enum LoadError: Error, CustomStringConvertible {
        case missingTemplates(directory: String, names: [String])
        var description: String {
            switch self {
            case .missingTemplates(let directory, let names):
                "Templates missing from \(directory): \(names.joined(separator: ", ")). Start the console from the project folder or pass --templates."
            }
        }
    }

    /// Loads every template and refuses to start without the ones every page needs, because
    /// a missing folder would otherwise render blank pages.
    static func load(directory: String, cookies: CookieJar, required: [String], showsTour: Bool = false) async throws -> PageRenderer {
        var library = try await MustacheLibrary(directory: directory)
        let missing = required.filter { library.getTemplate(named: $0) == nil }
        guard missing.isEmpty else { throw LoadError.missingTemplates(directory: directory, names: missing) }
        // Each page renders inside a section over its model, so names the model lacks (the
        // CSRF token every form needs) are found in the enclosing `PageScope`.
        for name in templateNames(in: directory) {
            try library.register("{{#page}}{{> \(name)}}{{/page}}", named: scoped(name))
        }
        return PageRenderer(library: library, cookies: cookies, showsTour: showsTour)
    }

    /// The page `template` renders from `model`, inside the layout. A template that is not
    /// there throws (a 500 with a request id in the log), never a blank page.
    func page(
        _ template: String, title: String, model: Any = EmptyModel(),
        request: Request, context: some PageRenderingContext, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let flash = request.cookies[CookieJar.flash].flatMap { Flash(cookieValue: $0.value) }
        guard let body = library.render(PageScope(csrfToken: context.csrfToken, page: model), withTemplate: Self.scoped(template)) else {
            throw RenderError.missingTemplate(template)
        }
        let layout = LayoutView(
            title: title, body: body,
            user: context.signedInUser.map(SignedInUserView.init),
            csrfToken: context.csrfToken,
            flash: flash.map(FlashView.init),
            nav: Navigation.items(for: context.signedInUser?.role, currentPath: request.uri.path, withTour: showsTour),
            sectionNav: Navigation.sectionItems(for: context.signedInUser?.role, currentPath: request.uri.path),
            tour: TourBanner(stepID: request.uri.queryParameters[Substring(TourBanner.parameter)], role: context.signedInUser?.role))
        guard let html = library.render(layout, withTemplate: "layout") else { throw RenderError.missingTemplate("layout") }
        var response = Response.html(html, status: status)
        if flash != nil {
            response.setCookie(cookies.expire(CookieJar.flash, for: request))
        }
        return response
    }

    enum RenderError: Error, CustomStringConvertible {
        case missingTemplate(String)

        var description: String {
            switch self {
            case .missingTemplate(let name): "no template named \(name) in the templates folder"
            }
        }
    }

    private static func scoped(_ name: String) -> String { "scoped:" + name }

    /// Template names as the library registers them: paths below the folder without `.mustache`.
    private static func templateNames(in directory: String) -> [String] {
        let files = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return files.filter { $0.hasSuffix(".mustache") }.map { String($0.dropLast(".mustache".count)) }
    }

    /// A page for someone who is not signed in and has no use for the console's navigation
    /// (a person enrolling their device), inside the layout.
    func standalonePage(_ template: String, title: String, model: Any, status: HTTPResponse.Status = .ok) throws -> Response {
        guard let body = library.render(PageScope(csrfToken: "", page: model), withTemplate: Self.scoped(template)) else {
            throw RenderError.missingTemplate(template)
        }
        let layout = LayoutView(title: title, body: body, user: nil, csrfToken: "", flash: nil, nav: [])
        guard let html = library.render(layout, withTemplate: "layout") else { throw RenderError.missingTemplate("layout") }
        return Response.html(html, status: status)
    }

    /// A page for errors, rendered without the signed-in user's navigation because errors are
    /// answered outside the session middleware.
    func errorPage(status: HTTPResponse.Status, heading: String, message: String, requestID: String?) -> Response {
        let model = ErrorView(status: Int(status.code), heading: heading, message: message, requestID: requestID)
        let layout = LayoutView(
            title: heading,
            body: library.render(model, withTemplate: "error") ?? heading,
            user: nil, csrfToken: "", flash: nil, nav: [])
        return Response.html(library.render(layout, withTemplate: "layout") ?? heading, status: status)
    }
}

/// What every page template can reach besides its own model.
struct PageScope {
    let csrfToken: String
    let page: Any
    let site = SiteLinks()
}

struct LayoutView {
    let title: String
    let body: String
    let user: SignedInUserView?
    let csrfToken: String
    let flash: FlashView?
    let nav: [NavItem]
    /// The tabs of the section the page is in (Settings), or none.
    let sectionNav: [NavItem]
    /// Stored, not computed: Mustache reads stored properties only.
    let hasNav: Bool
    let hasSectionNav: Bool
    /// The tour step a step's link opened this page for.
    let tour: TourBanner?

    init(title: String, body: String, user: SignedInUserView?, csrfToken: String, flash: FlashView?, nav: [NavItem], sectionNav: [NavItem] = [],
         tour: TourBanner? = nil) {
        self.tour = tour
        self.title = title
        self.body = body
        self.user = user
        self.csrfToken = csrfToken
        self.flash = flash
        self.nav = nav
        self.sectionNav = sectionNav
        hasNav = !nav.isEmpty
        hasSectionNav = !sectionNav.isEmpty
    }
}

struct SignedInUserView {
    let email: String
    let roleName: String

    init(_ user: User) {
        email = user.email
        roleName = user.role.displayName
    }
}

struct FlashView {
    let message: String
    let isError: Bool

    init(_ flash: Flash) {
        message = flash.message
        isError = flash.kind == .error
    }
}

struct ErrorView {
    let status: Int
    let heading: String
    let message: String
    let requestID: String?
    let site = SiteLinks()
}

struct NavItem {
    let label: String
    let href: String
    let current: Bool
}

/// The main navigation; an entry appears only for roles that may open it. The admin's pages
/// sit under one Settings entry, with their own row of tabs, so the bar fits a tablet's width
/// on one line.
enum Navigation {
    private static let entries: [(label: String, href: String, role: Role)] = [
        ("Dashboard", Site.dashboard.link(), .viewer),
        ("Profiles", Site.Profiles.list.link(), .viewer),
        ("Devices", Site.Devices.list.link(), .viewer),
        ("Groups", Site.Groups.list.link(), .viewer),
        ("Apps", Site.Apps.list.link(), .viewer),
        ("Logs", Site.Logs.index.link(), .helpdesk),
        ("Settings", Site.Settings.page.link(), .admin),
        ("Help", Site.Help.index.link(), .viewer),
    ]
    private static let tour = (label: "Tour", href: Site.Tour.page.link(), role: Role.viewer)

    /// Settings' tabs: every one of them is an admin's.
    private static let settingsPages: [(label: String, href: String)] = [
        ("Organisation and logs", Site.Settings.page.link()),
        ("Users", Site.Accounts.users.link()),
        ("Signing", Site.Signing.page.link()),
        ("Enrollment", Site.Enrollment.page.link()),
        ("API tokens", Site.Tokens.list.link()),
        ("Audit log", Site.Audit.log.link()),
    ]

    static func items(for role: Role?, currentPath: String, withTour: Bool = false) -> [NavItem] {
        guard let role else { return [] }
        let inSettings = settingsPages.contains { isUnder(currentPath, $0.href) }
        return (entries + (withTour ? [tour] : [])).filter { role.includes($0.role) }.map {
            NavItem(label: $0.label, href: $0.href, current: $0.href == Site.Settings.page.link() ? inSettings : isUnder(currentPath, $0.href))
        }
    }

    static func sectionItems(for role: Role?, currentPath: String) -> [NavItem] {
        guard let role, role.includes(.admin), settingsPages.contains(where: { isUnder(currentPath, $0.href) }) else { return [] }
        return settingsPages.map { NavItem(label: $0.label, href: $0.href, current: isUnder(currentPath, $0.href)) }
    }

    private static func isUnder(_ path: String, _ href: String) -> Bool {
        path == href || path.hasPrefix(href + "/")
    }
}

/// The model of a page that shows nothing of its own.
struct EmptyModel {}

// Every page renders these, so they answer the template engine's lookups directly instead of
// through reflection (which swift-mustache falls back to, at several times the cost).

extension PageScope: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "page": page
        case "csrfToken": csrfToken
        case "site": site
        default: nil
        }
    }
}

extension LayoutView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "body": body
        case "user": user
        case "csrfToken": csrfToken
        case "flash": flash
        case "nav": nav
        case "hasNav": hasNav
        case "sectionNav": sectionNav
        case "hasSectionNav": hasSectionNav
        case "tour": tour
        case "site": SiteLinks()
        default: nil
        }
    }
}

extension SignedInUserView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "email": email
        case "roleName": roleName
        default: nil
        }
    }
}

extension FlashView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "message": message
        case "isError": isError
        default: nil
        }
    }
}

extension NavItem: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "href": href
        case "current": current
        default: nil
        }
    }
}
