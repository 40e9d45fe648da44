import Domain
import HTTPTypes
import Hummingbird

/// Who may use a route, as the route table records it: every route states one when it is
/// registered (a role, `.anyone`, or a device route on `DeviceRoutes`); there is no default.
enum Access: Sendable, Equatable {
    /// Signed out or in: sign-in form, health check, static pages.
    case anyone
    /// A signed-in user whose role includes this one.
    case role(Role)
    /// A device presenting its check-in token (`DeviceRoutes`; its handlers get the device).
    case device
    /// A device speaking Apple's MDM protocol, identified by the signature on each message
    /// (`MDMRoutes`); SCEP and the enrollment link are open to any device holding the secret.
    case mdmDevice
}

/// One registered route, kept so tests can check every route's declared access.
struct RouteEntry: Sendable, Equatable {
    let method: HTTPRequest.Method
    let path: String
    let access: Access
}

typealias PageHandler = @Sendable (Request, AppRequestContext) async throws -> Response
typealias SignedInHandler = @Sendable (Request, SignedInContext) async throws -> Response

/// Registers routes on one route group with the access check wrapped around each handler, so
/// a route cannot be added without saying who may use it, and the check runs on the server for
/// direct posts as much as for links the page shows. Routes open to anyone get the request's
/// context; routes that need a role get a `SignedInContext`, whose user is never missing. The
/// console has one per kind of caller (`RouteGroups`), each group with its own middleware.
final class SecuredRoutes {
    private let group: RouterGroup<AppRequestContext>
    private let signedIn: RouterGroup<SignedInContext>
    let table: RouteTable

    init(_ group: RouterGroup<AppRequestContext>, table: RouteTable) {
        self.group = group
        signedIn = group.group(context: SignedInContext.self)
        self.table = table
    }

    // Routes are added from their declarations — `on(_: SiteRoute)`, `on(_: OpenRoute)`,
    // `handle(_: APIEndpoint)` — never from an address typed at the call.

    func addOpen(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping PageHandler) {
        table.add(RouteEntry(method: method, path: path, access: .anyone))
        group.on(RouterPath(path), method: method, use: handler)
    }

    func add(_ method: HTTPRequest.Method, _ path: String, _ role: Role, _ handler: @escaping SignedInHandler) {
        table.add(RouteEntry(method: method, path: path, access: .role(role)))
        signedIn.on(RouterPath(path), method: method, use: { @Sendable request, context in
            try Self.authorize(role, request: request, context: context)
            return try await handler(request, context)
        })
    }

    static func authorize(_ required: Role, request: Request, context: SignedInContext) throws {
        if context.user.mustChangePassword && !PasswordChangeExemptions.paths.contains(request.uri.path) {
            throw AccessDenied.passwordChangeRequired
        }
        guard context.user.role.includes(required) else { throw AccessDenied.insufficientRole }
    }
}

/// The pages someone with a one-time password may still reach.
enum PasswordChangeExemptions {
    static let paths: Set<String> = [Site.Accounts.passwordForm.link(), Site.Accounts.signOut.link()]
}
