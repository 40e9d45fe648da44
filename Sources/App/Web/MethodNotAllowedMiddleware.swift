import Domain
import HTTPTypes
import Hummingbird

/// Answers 405 with `Allow` (instead of the router's 404) when the path exists but not for
/// this method — `TRACE /sign-in`, `PATCH /api/v1/profiles/1` — as HTTP and the OpenAPI
/// document say. Only looked up after a 404, so it costs the hot paths nothing; a 404 from a
/// route that does take this method (a missing item) stays a 404.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            var allowed = routes.methods(for: request.uri.path)
            if allowed.contains(.get) { allowed.append(.head) }
            // A route for this very method ran and found nothing (no such help page): a 404.
            guard !allowed.isEmpty, !allowed.contains(request.method) else { throw error }
            let names = Set(allowed.map(\.rawValue)).sorted()
            throw HTTPError(.methodNotAllowed, headers: [.allow: names.joined(separator: ", ")],
                            message: "\(request.method.rawValue.clipped(to: 20)) is not allowed here; use \(names.joined(separator: ", ")).")
        }
    }
}
