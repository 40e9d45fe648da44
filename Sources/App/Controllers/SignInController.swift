import Domain
import Foundation
import Hummingbird
import Storage

/// Signing in and out. A failed sign-in says the same thing whether or not the account exists,
/// takes as long either way, and after repeated failures for one email makes the next attempt
/// wait (see `SignInThrottle`).
struct SignInController {
    let services: Services
    let throttle = SignInThrottle()

    struct FormView {
        var email = ""
        var next = "/dashboard"
        var error: String?
        var emailError: String?
        var passwordError: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/", .anyone) { _, context in
            .seeOther(context.user == nil ? "/sign-in" : "/dashboard")
        }
        routes.get("/sign-in", .anyone) { request, context in
            let next = LocalPath.sanitised(request.uri.queryParameters["next"].map(String.init) ?? "")
            if context.user != nil { return .seeOther(next) }
            return try form(FormView(next: next), request: request, context: context)
        }
        routes.post("/sign-in", .anyone, use: signIn)
        routes.post("/sign-out", .anyone, use: signOut)
    }

    private func form(_ view: FormView, request: Request, context: AppRequestContext, status: HTTPResponse.Status = .ok) throws -> Response {
        try services.renderer.page("sign-in", title: "Sign in", model: view, request: request, context: context, status: status)
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

        let now = services.now
        let wait = try await reserveAttempt(for: email, at: now)
        if wait > 0 {
            view.error = "Too many failed attempts for this email. Try again in \(Self.describe(seconds: wait))."
            var response = try form(view, request: request, context: context, status: .tooManyRequests)
            response.headers[.retryAfter] = String(Int(wait.rounded(.up)))
            return response
        }

        let user = try await services.database.read { try $0.fetchOne(User.query().filter("email", .equal, email)) }
        let verified: Bool
        if let user {
            verified = await services.hasher.verify(password, against: user.passwordHash)
        } else {
            await services.hasher.verifyAgainstNothing(password)
            verified = false
        }
        guard let user, verified else {
            view.error = "The email or password is not right. Check both and try again."
            return try form(view, request: request, context: context, status: .unprocessableContent)
        }

        let token = try await services.database.write { connection -> String in
            _ = try connection.delete(SignInFailure.query().filter("email", .equal, email))
            var signedIn = user
            signedIn.lastSignInAt = now
            try connection.update(signedIn)
            let (token, _) = try services.sessions.create(for: signedIn, in: connection)
            try connection.audit("user.signed_in", subject: user.email, by: Actor(user), at: now)
            return token
        }
        var response = Response.seeOther(user.mustChangePassword ? "/account/password" : view.next)
        response.setCookie(services.cookies.make(CookieJar.session, value: token, maxAge: Int(services.config.sessionLifetime), for: request))
        response.setCookie(services.cookies.expire(CookieJar.signedOutCSRF, for: request))
        return response
    }

    @Sendable func signOut(request: Request, context: AppRequestContext) async throws -> Response {
        if let session = context.session {
            try await services.database.write { connection in
                try? services.sessions.delete(session, in: connection)
                if let user = context.user {
                    try connection.audit("user.signed_out", subject: user.email, by: Actor(user), at: services.now)
                }
            }
        }
        var response = Response.seeOther("/sign-in", flash: .notice("You are signed out."), cookies: services.cookies, request: request)
        response.setCookie(services.cookies.expire(CookieJar.session, for: request))
        return response
    }

    /// Counts this attempt as a failure before the password is checked, in the same write
    /// that reads the count, so parallel guesses cannot all slip under the limit; a correct
    /// password then clears the count. Answers the seconds still to wait (0: go ahead).
    private func reserveAttempt(for email: String, at now: Date) async throws -> Double {
        try await services.database.write { connection in
            guard var failure = try connection.fetchOne(SignInFailure.query().filter("email", .equal, email)) else {
                _ = try connection.insert(SignInFailure(id: nil, email: email, failureCount: 1, lastFailureAt: now))
                return 0
            }
            let wait = throttle.remainingWait(failures: failure.failureCount, secondsSinceLastFailure: now.timeIntervalSince(failure.lastFailureAt))
            guard wait == 0 else { return wait }
            failure.failureCount += 1
            failure.lastFailureAt = now
            try connection.update(failure)
            return 0
        }
    }

    static func describe(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        if whole < 60 { return whole == 1 ? "1 second" : "\(whole) seconds" }
        let minutes = (whole + 59) / 60
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}
