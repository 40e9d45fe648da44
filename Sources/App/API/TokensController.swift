import Domain
import Foundation
import Hummingbird
import Storage

/// Admins create API tokens for scripts (shown once) and revoke them.
struct TokensController {
    let tokens: APITokenStore
    let cookies: CookieJar
    let now: @Sendable () -> Date
    let renderer: PageRenderer

    struct Row {
        let revokePath: String
        let name: String
        let role: String
        let createdBy: String
        let created: String
        let lastUsed: String
        let revoked: Bool
    }

    struct View {
        var rows: [Row] = []
        var name = ""
        var roles = UsersController.RoleOption.all(selected: .viewer)
        var nameError: String?
        var created: String?
        var createdName = ""
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Tokens.list) { request, context in try await page(View(), request: request, context: context) }
        routes.on(Site.Tokens.issue) { request, context in
            let actor = Actor(context.user)
            let role = Role(rawValue: context.form["role"]) ?? .viewer
            var view = View(name: context.form["name"], roles: UsersController.RoleOption.all(selected: role))
            do {
                let (token, record) = try await tokens.create(name: context.form["name"], role: role, by: actor)
                // Shown in this response only; only its hash is stored.
                view = View(created: token, createdName: record.name)
                return try await page(view, request: request, context: context, status: .created)
            } catch let errors as FieldErrors {
                view.nameError = errors["name"]
                return try await page(view, request: request, context: context, status: .unprocessableContent)
            }
        }
        routes.on(Site.Tokens.revoke) { id, request, context in
            try await tokens.revoke(id, by: Actor(context.user))
            return .seeOther(Site.Tokens.list.link(), flash: .notice("The token is revoked; scripts using it now get 401."), cookies: cookies, request: request)
        }
    }

    private func page(_ view: View, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let now = self.now()
        let records = try await tokens.all()
        var view = view
        view.rows = records.map {
            Row(revokePath: Site.Tokens.revoke.link($0.id), name: $0.name, role: $0.role.displayName, createdBy: $0.createdBy,
                created: DisplayTime.relative($0.createdAt, now: now),
                lastUsed: $0.lastUsedAt.map { DisplayTime.relative($0, now: now) } ?? "never", revoked: $0.revokedAt != nil)
        }
        return try renderer.page("tokens/index", title: "API tokens", model: view, request: request, context: context, status: status)
    }
}
