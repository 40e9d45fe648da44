import Domain
import Foundation
import Hummingbird
import Storage

/// Authenticates the JSON API's requests by bearer token. The request then acts as a user with
/// the token's role, so the same route access rules apply to scripts as to people.
struct APITokenMiddleware: RouterMiddleware {
    typealias Context = AppRequestContext

    let tokens: APITokenStore

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.lowercased().hasPrefix("bearer ") else {
            return try await next(request, context)
        }
        guard let token = try await tokens.find(String(header.dropFirst(7)).trimmingWhitespace()) else {
            throw APIError(status: .unauthorized, code: .invalidToken, message: "The API token is unknown or revoked.")
        }
        var context = context
        // The token acts for the person who made it: their id (none for a command-line token),
        // the token's capped role, and its own name so the audit log tells script from person.
        context.user = User(id: token.creatorID ?? .unsaved, email: "token:\(token.record.name)", passwordHash: "", role: token.role,
                            mustChangePassword: false, createdAt: token.record.createdAt, lastSignInAt: nil)
        context.apiToken = token.record.id
        return try await next(request, context)
    }
}
