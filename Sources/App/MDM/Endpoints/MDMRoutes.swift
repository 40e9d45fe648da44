import Hummingbird
import Logging

/// A request on the MDM endpoints. A device is not a signed-in person: nothing of the page's
/// or API's context applies, and what identifies the device (its signature) is checked by the
/// handler against the body it signs.
struct MDMRequestContext: ChildRequestContext {
    typealias ParentContext = AppRequestContext
    var coreContext: CoreRequestContextStorage

    init(context: AppRequestContext) throws {
        coreContext = context.coreContext
    }
}

typealias MDMHandler = @Sendable (Request, MDMRequestContext) async throws -> Response

/// Registers the MDM endpoints under `/mdm/` on their own group, whose errors are plain
/// statuses with a line of text (`MDMPlainErrors`): a device reads the status, a person
/// debugging with curl reads the line, and nobody gets the console's HTML error page.
final class MDMRoutes {
    private let group: RouterGroup<MDMRequestContext>
    private let table: RouteTable

    init(router: Router<AppRequestContext>, table: RouteTable) {
        let parent = router.group("mdm")
        parent.add(middleware: MDMPlainErrors())
        group = parent.group(context: MDMRequestContext.self)
        self.table = table
        // An address under /mdm/ that is no endpoint is a plain 404 too.
        group.on("**", method: .get) { _, _ -> Response in throw MDMRefusal(.notFound, "There is no MDM endpoint at this address.") }
    }

    /// `path` is relative to `/mdm/`.
    func on(_ method: HTTPRequest.Method, _ path: String, access: Access, use handler: @escaping MDMHandler) {
        table.add(RouteEntry(method: method, path: "/mdm/" + path, access: access))
        group.on(RouterPath(path), method: method, use: handler)
    }
}

/// A refusal on the MDM endpoints: the status the device's protocol expects and a line that
/// says why. `logged` refusals (a signature that does not check out, another device's
/// certificate) are attempts an admin may need to find, so they are written to the log.
struct MDMRefusal: Error {
    let status: HTTPResponse.Status
    let reason: String
    let logged: Bool

    init(_ status: HTTPResponse.Status, _ reason: String, logged: Bool = false) {
        self.status = status
        self.reason = reason
        self.logged = logged
    }
}

/// Turns every error on the MDM endpoints into a plain-text answer with its status.
struct MDMPlainErrors: RouterMiddleware {
    typealias Context = AppRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let refusal as MDMRefusal {
            if refusal.logged {
                context.logger.warning("MDM request refused", metadata: ["path": "\(request.uri.path)", "status": "\(refusal.status.code)",
                                                                          "reason": "\(refusal.reason)"])
            }
            return Self.plain(refusal.status, refusal.reason)
        } catch {
            let problem = Problem(error)
            if problem.status == .internalServerError {
                context.logger.error("MDM request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            }
            var response = Self.plain(problem.status, problem.message)
            if let seconds = problem.retryAfter { response.headers[.retryAfter] = "\(seconds)" }
            return response
        }
    }

    static func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: text + "\n")))
    }
}
