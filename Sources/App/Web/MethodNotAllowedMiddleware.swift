import Domain
import HTTPTypes
import Hummingbird
import Synchronization

/// The paths the console serves and the methods each accepts, filled in as routes are
/// registered, so a request with a method a path does not take can be told so.
final class RoutePatterns: Sendable {
    private let entries = Mutex<[(segments: [Substring], method: HTTPRequest.Method)]>([])

    func add(_ path: String, _ method: HTTPRequest.Method) {
        entries.withLock { $0.append((path.split(separator: "/"), method)) }
    }

    /// The methods routes matching `path` accept (`{name}` segments match any one segment).
    func methods(for path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/")
        return entries.withLock { entries in
            entries.filter { entry in
                entry.segments.count == segments.count
                    && zip(entry.segments, segments).allSatisfy { pattern, segment in pattern.first == "{" || pattern == segment }
            }.map(\.method)
        }
    }
}

/// Answers 405 with `Allow` (instead of the router's 404) when the path exists but not for
/// this method — `TRACE /sign-in`, `PATCH /api/v1/profiles/1` — as HTTP and the OpenAPI
/// document say. Only looked up after the router found nothing, so it costs the hot paths nothing.
struct MethodNotAllowedMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let patterns: RoutePatterns

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            var allowed = patterns.methods(for: request.uri.path)
            guard !allowed.isEmpty else { throw error }
            if allowed.contains(.get) { allowed.append(.head) }
            let names = Set(allowed.map(\.rawValue)).sorted()
            throw HTTPError(.methodNotAllowed, headers: [.allow: names.joined(separator: ", ")],
                            message: "\(request.method.rawValue.clipped(to: 20)) is not allowed here; use \(names.joined(separator: ", ")).")
        }
    }
}
