import Domain
import Foundation
import Hummingbird

/// A signed-in user changes their own password; required before anything else when their
/// account still has a one-time password.
struct AccountController {
    let accounts: AccountService
    let cookies: CookieJar
    let renderer: PageRenderer

    struct View {
        var mustChange = false
        var currentError: String?
        var newError: String?
        var confirmationError: String?
        var minimumLength = PasswordHasher.minimumLength
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Accounts.passwordForm) { request, context in
            let user = context.user
            return try page(View(mustChange: user.mustChangePassword), request: request, context: context)
        }
        routes.on(Site.Accounts.changePassword) { request, context in
            let user = context.user
            let fields = context.form
            do {
                try await accounts.changePassword(
                    of: user, current: fields["current"], new: fields["new"], confirmation: fields["confirmation"],
                    keeping: context.session?.id)
                return .seeOther(Site.dashboard.link(), flash: .notice("Your password is changed. Other sessions were signed out."),
                                 cookies: cookies, request: request)
            } catch let errors as FieldErrors {
                // Password fields are never echoed back, even on error.
                let view = View(mustChange: user.mustChangePassword, currentError: errors["current"],
                                newError: errors["new"], confirmationError: errors["confirmation"])
                return try page(view, request: request, context: context, status: .unprocessableContent)
            }
        }
    }

    private func page(_ view: View, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) throws -> Response {
        try renderer.page("account-password", title: "Change password", model: view, request: request, context: context, status: status)
    }
}
