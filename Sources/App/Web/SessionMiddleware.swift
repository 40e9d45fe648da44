import Hummingbird

/// Finds the signed-in user from the session cookie and puts user, session and the page's CSRF
/// token into the request context. Signed-out visitors get a `pc_csrf` cookie instead, so the
/// sign-in form is protected too. On the page routes only: machines carry no browser session.
struct SessionMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let sessions: SessionStore
    let cookies: CookieJar

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        var staleSessionCookie = false
        if let token = request.cookies[CookieJar.session]?.value, !token.isEmpty {
            if let (session, user) = try await sessions.load(token: token) {
                context.session = session
                context.user = user
                context.csrfToken = session.csrfToken
            } else {
                staleSessionCookie = true
            }
        }
        var newSignedOutToken: String?
        if context.session == nil {
            if let existing = request.cookies[CookieJar.signedOutCSRF]?.value, existing.count >= 32 {
                context.csrfToken = existing
            } else {
                let token = SecretToken.generate()
                newSignedOutToken = token
                context.csrfToken = token
            }
        }
        var response: Response
        do {
            response = try await next(request, context)
        } catch where staleSessionCookie {
            // The error becomes its page further out (a sign-in redirect, say): it carries the cookie there.
            throw ErrorWithHeaders(error, [.setCookie: cookies.expire(CookieJar.session, for: request).description])
        }
        // A cookie naming no live session is cleared on whatever answer goes back, unless the
        // answer sets a new session itself (signing in again).
        let setsSession = response.headers[values: .setCookie].contains { $0.hasPrefix(CookieJar.session + "=") }
        if staleSessionCookie && !setsSession {
            response.setCookie(cookies.expire(CookieJar.session, for: request))
        }
        if let newSignedOutToken {
            response.setCookie(cookies.make(CookieJar.signedOutCSRF, value: newSignedOutToken, maxAge: nil, for: request))
        }
        return response
    }
}
