import Domain
import Foundation
import Hummingbird
import Storage

/// Admins manage who may use the console: add people with a role (they get a one-time
/// password to hand over), change roles, remove accounts.
struct UsersController {
    let now: @Sendable () -> Date
    let accounts: AccountService
    let renderer: PageRenderer
    let cookies: CookieJar

    struct RoleOption {
        let value: String
        let label: String
        let summary: String
        let selected: Bool

        static func all(selected: Role?) -> [RoleOption] {
            Role.allCases.reversed().map {
                RoleOption(value: $0.rawValue, label: $0.displayName, summary: $0.summary, selected: $0 == selected)
            }
        }
    }

    struct Row {
        let id: String
        let rolePath: String
        let deletePath: String
        let email: String
        let roleName: String
        let roleOptions: [RoleOption]
        let lastSignIn: String
        let mustChangePassword: Bool
        let isSelf: Bool
    }

    struct View {
        var rows: [Row] = []
        var email = ""
        var roleOptions = RoleOption.all(selected: .viewer)
        var emailError: String?
        var roleError: String?
        var rowError: String?
        var created: Created?

        struct Created {
            let email: String
            let password: String
        }
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Accounts.users) { request, context in
            try await page(View(), request: request, context: context)
        }
        routes.on(Site.Accounts.addUser, use: add)
        routes.on(Site.Accounts.changeRole, use: changeRole)
        routes.on(Site.Accounts.removeUser, use: delete)
    }

    private func page(_ view: View, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let me = context.user
        let now = self.now()
        let users = try await accounts.users()
        var view = view
        view.rows = users.map { user in
            Row(id: user.id.description, rolePath: Site.Accounts.changeRole.link(user.id), deletePath: Site.Accounts.removeUser.link(user.id), email: user.email, roleName: user.role.displayName,
                roleOptions: RoleOption.all(selected: user.role),
                lastSignIn: user.lastSignInAt.map { DisplayTime.relative($0, now: now) } ?? "never",
                mustChangePassword: user.mustChangePassword, isSelf: user.id == me.id)
        }
        return try renderer.page("users", title: "Users", model: view, request: request, context: context, status: status)
    }

    @Sendable func add(request: Request, context: SignedInContext) async throws -> Response {
        let me = context.user
        let fields = context.form
        var view = View(email: fields["email"])
        let role = Role(rawValue: fields["role"])
        view.roleOptions = RoleOption.all(selected: role ?? .viewer)
        do {
            guard let role else { throw FieldErrors("role", "Choose a role.") }
            let (user, password) = try await accounts.createUser(email: fields["email"], role: role, password: nil, by: Actor(me))
            // Shown in this response only: the password never travels in a redirect or a cookie.
            return try await page(View(created: .init(email: user.email, password: password ?? "")), request: request, context: context, status: .created)
        } catch let errors as FieldErrors {
            view.emailError = errors["email"]
            view.roleError = errors["role"]
            return try await page(view, request: request, context: context, status: .unprocessableContent)
        }
    }

    @Sendable func changeRole(_ id: RecordID<User>, request: Request, context: SignedInContext) async throws -> Response {
        let me = context.user
        guard let role = Role(rawValue: context.form["role"]) else {
            return try await page(View(rowError: "Choose one of the roles."), request: request, context: context, status: .unprocessableContent)
        }
        do {
            let email = try await accounts.changeRole(of: id, to: role, by: Actor(me)).email
            return .seeOther(Site.Accounts.users.link(), flash: .notice("\(email) is now \(role.displayName)."), cookies: cookies, request: request)
        } catch let errors as FieldErrors {
            return try await page(View(rowError: errors["user"]), request: request, context: context, status: .conflict)
        }
    }

    @Sendable func delete(_ id: RecordID<User>, request: Request, context: SignedInContext) async throws -> Response {
        let me = context.user
        do {
            let email = try await accounts.deleteUser(id, by: Actor(me)).email
            return .seeOther(Site.Accounts.users.link(), flash: .notice("Removed \(email)."), cookies: cookies, request: request)
        } catch let errors as FieldErrors {
            return try await page(View(rowError: errors["user"]), request: request, context: context, status: .conflict)
        }
    }
}
