import Hummingbird
import NIOCore

/// Refuses any state-changing browser request whose CSRF token does not match the one its
/// session (or, before sign-in, its `pc_csrf` cookie) issued. URL-encoded bodies are parsed here
/// once and handed to the handler in `context.form`. The JSON API under `/api/` authenticates
/// with bearer tokens, not cookies, so cross-site forms cannot ride on it.
struct CSRFMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    static let formField = "_csrf"
    static let header = "X-CSRF-Token"
    static let maxFormSize = 1 << 20
    /// Uploads (four logos of at most 1 MB each) with room for the other fields.
    static let maxMultipartSize = 5 << 20

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard ![.get, .head, .options].contains(request.method), !request.uri.path.hasPrefix("/api/") else {
            return try await next(request, context)
        }
        var request = request
        var context = context
        if Self.isURLEncoded(request) {
            let body = try await request.collectBody(upTo: Self.maxFormSize)
            context.form = FormFields(urlEncoded: String(buffer: body))
        } else if let boundary = Self.multipartBoundary(request) {
            let body = try await request.collectBody(upTo: Self.maxMultipartSize)
            guard let parsed = try? MultipartForm.parse(body, boundary: boundary) else {
                throw APIError(status: .badRequest, code: "malformed_form", message: "The uploaded form could not be read. Try sending it again.")
            }
            context.form = parsed.fields
            context.files = parsed.files
        }
        let sent = request.headers[.init(Self.header)!] ?? context.form[Self.formField]
        guard !context.csrfToken.isEmpty, SecretToken.constantTimeEquals(sent, context.csrfToken) else {
            throw AccessDenied.formExpired
        }
        return try await next(request, context)
    }

    private static func multipartBoundary(_ request: Request) -> String? {
        guard let type = request.headers[.contentType].flatMap(MediaType.init(from:)), type.isType(.multipartForm) else { return nil }
        return type.parameter?.name == "boundary" ? type.parameter?.value : nil
    }

    private static func isURLEncoded(_ request: Request) -> Bool {
        guard let type = request.headers[.contentType].flatMap(MediaType.init(from:)) else { return false }
        return type.isType(.applicationUrlEncoded)
    }
}
