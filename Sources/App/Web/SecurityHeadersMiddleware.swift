import Hummingbird
import HTTPTypes

/// Headers that keep the console's pages from being framed, sniffed or fed foreign scripts.
/// Every asset is served from our own origin, so the policy can be strict.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[.contentSecurityPolicy] = strictContentSecurityPolicy
        response.headers[.frameOptions] = "DENY"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        response.headers[.permissionsPolicy] = "camera=(), microphone=(), geolocation=()"
        return response
    }
}

extension HTTPField.Name {
    // Not among swift-http-types' predefined names.
    static let frameOptions = Self("X-Frame-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let permissionsPolicy = Self("Permissions-Policy")!
}

/// Made once, not per response: a generic type cannot hold a stored static.
private let strictContentSecurityPolicy = [
    "default-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self'",
    "script-src 'self'",
    "connect-src 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "object-src 'none'",
].joined(separator: "; ")
