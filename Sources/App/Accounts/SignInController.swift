import Domain
import Foundation
import Hummingbird
import Storage

/// The sign-in form and signing out; the rules are `SignInService`'s.
struct SignInController {
    let renderer: PageRenderer
    let signIns: SignInService
    let cookies: CookieJar
    let config: AppConfig
    let tour: TourStore

    struct FormView {
        var email = ""
        var next = Site.dashboard.link()
        var error: String?
        var emailError: String?
        var passwordError: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.home) { _, context in
            .seeOther(context.user == nil ? Site.Accounts.signInForm.link() : Site.dashboard.link())
        }
        routes.on(Site.Accounts.signInForm) { request, context in
            let next = LocalPath.sanitised(request.uri.formParameters["next"].map(String.init) ?? "")
            if context.user != nil { return .seeOther(next) }
            return try form(FormView(next: next), request: request, context: context)
        }
        routes.on(Site.Accounts.signIn, use: signIn)
        routes.on(Site.Accounts.signOut, use: signOut)
    }

    private func form(_ view: FormView, request: Request, context: AppRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        try renderer.page("sign-in", title: "Sign in", model: view, request: request, context: context, status: status)
    }

    @Sendable func signIn(request: Request, context: AppRequestContext) async throws -> Response {
        let fields = context.form
        var view = FormView(email: fields["email"], next: LocalPath.sanitised(fields["next"]))
        let password = fields["password"]
        var email = ""
        do {
            email = try EmailAddress(validating: view.email).value
        } catch {
            view.emailError = error.message
        }
        if password.isEmpty { view.passwordError = "Enter your password." }
        guard view.emailError == nil, view.passwordError == nil else {
            return try form(view, request: request, context: context, status: .unprocessableContent)
        }

        switch try await signIns.signIn(email: email, password: password) {
        case .throttled(let wait):
            view.error = "Too many failed attempts for this email. Try again in \(Self.describe(seconds: wait))."
            var response = try form(view, request: request, context: context, status: .tooManyRequests)
            response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
            return response
        case .refused:
            view.error = "The email or password is not right. Check both and try again."
            return try form(view, request: request, context: context, status: .unprocessableContent)
        case .signedIn(let user, let token):
            var response = Response.seeOther(user.mustChangePassword ? Site.Accounts.passwordForm.link() : try await destination(view.next, for: user))
            response.setCookie(cookies.make(CookieJar.session, value: token, maxAge: Int(config.sessionLifetime), for: request))
            response.setCookie(cookies.expire(CookieJar.signedOutCSRF, for: request))
            return response
        }
    }

    /// Where a sign-in lands: where the person was going, except that the first sign-in to a
    /// demo console opens the tour of its stories.
    private func destination(_ next: String, for user: User) async throws -> String {
        guard config.demo, next == Site.dashboard.link(), try await tour.claimFirstVisit(of: user.id) else { return next }
        return Site.Tour.page.link()
    }

    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        if let session = context.session {
            try await signIns.signOut(session, user: context.user)
        }
        var response = Response.seeOther(Site.Accounts.signInForm.link(), flash: .notice("You are signed out."), cookies: cookies, request: request)
        response.setCookie(cookies.expire(CookieJar.session, for: request))
        return response
    }

    static func describe(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return whole == 1 ? "1 second" : "\(whole) seconds" }
        let minutes = (whole + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
