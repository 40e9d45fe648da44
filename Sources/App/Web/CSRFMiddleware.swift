import HTTPTypes
import Hummingbird
import NIOCore

/// Refuses any state-changing browser request whose CSRF token does not match the one its
/// session (or, before sign-in, its `pc_csrf` cookie) issued. Form bodies (URL-encoded or
/// multipart) are read here once, within `RequestLimits`, and handed to the handler in
/// `context.form` and `context.files`; a body that claims to be a form and is not one is a 400.
/// It guards the page routes only: the JSON API authenticates with bearer tokens, not cookies,
/// so cross-site forms cannot ride on it.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let formField = "_csrf"
    static let header = HTTPField.Name("X-CSRF-Token")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        // Only methods that change something need a token; others (TRACE, unknown ones) go on
        // to the router, which has no route for them.
        guard [.post, .put, .patch, .delete].contains(request.method) else {
            return try await next(request, context)
        }
        var request = request
        var context = context
        let contentType = HeaderParameters(request.headers[.contentType] ?? "")
        switch contentType.type {
        case "application/x-www-form-urlencoded":
            let body = try await request.collectBody(upTo: RequestLimits.formBody)
            guard let fields = FormFields(urlEncoded: body.readableBytesView) else { throw Self.malformed }
            context.form = fields
        case "multipart/form-data":
            let body = try await request.collectBody(upTo: RequestLimits.multipartBody)
            guard let form = try? MultipartForm(parsing: Array(body.readableBytesView), boundary: contentType.parameters["boundary"] ?? "") else {
                throw Self.malformed
            }
            context.form = form.fields
            context.files = form.files
        default:
            break
        }
        // Signing out a browser whose session is already gone ends nothing: it only clears the
        // stale cookie, so it needs no token (the other tab's sign-out, an expired session).
        if context.session == nil, request.uri.path == Site.Accounts.signOut.link() {
            return try await next(request, context)
        }
        let sent = request.headers[Self.header] ?? context.form[Self.formField]
        guard !context.csrfToken.isEmpty, SecretToken.constantTimeEquals(sent, context.csrfToken) else {
            throw AccessDenied.formExpired
        }
        return try await next(request, context)
    }

    /// A body that says it is a form but cannot be read as one.
    static let malformed = APIError(status: .badRequest, code: .malformedForm, message: "The form could not be read. Reload the page and send it again.")
}
