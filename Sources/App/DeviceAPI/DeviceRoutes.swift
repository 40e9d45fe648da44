import Hummingbird

/// A request from a device that presented its check-in token. The device API's handlers get
/// the device itself: a request without one never reaches them (401).
struct DeviceRequestContext: ChildRequestContext {
    typealias ParentContext = AppRequestContext
    var coreContext: CoreRequestContextStorage
    let device: CheckingInDevice

    init(context: AppRequestContext) throws {
        guard let device = context.device else {
            throw APIError(status: .unauthorized, code: .unauthenticated,
                           message: "Send the device's check-in token: Authorization: Bearer pcd_….")
        }
        coreContext = context.coreContext
        self.device = device
    }
}

typealias DeviceHandler = @Sendable (Request, DeviceRequestContext) async throws -> Response

/// Registers the device API's routes on its group, each recorded in the route table.
final class DeviceRoutes {
    private let group: RouterGroup<DeviceRequestContext>
    private let table: RouteTable

    init(_ group: RouterGroup<DeviceRequestContext>, table: RouteTable) {
        self.group = group
        self.table = table
    }

    func get(_ path: String, use handler: @escaping DeviceHandler) {
        add(.get, path, handler)
    }

    func post(_ path: String, use handler: @escaping DeviceHandler) {
        add(.post, path, handler)
    }

    private func add(_ method: HTTPRequest.Method, _ path: String, _ handler: @escaping DeviceHandler) {
        table.add(RouteEntry(method: method, path: path, access: .device))
        group.on(RouterPath(path), method: method, use: handler)
    }

    /// Registers `endpoint` (declared with `access: .device`) as `SecuredRoutes.handle` does
    /// for a role: the body and the path's values read before the handler runs, the answer
    /// turned into the response, the operation recorded for the API document.
    func handle<Values, Body, Answer>(_ endpoint: Endpoint<Values, Body, Answer>,
                                      _ handler: @escaping @Sendable (Values, Body, Request, DeviceRequestContext) async throws -> Reply<Answer>) {
        guard endpoint.access == .device else {
            // A declaration error every test meets as the console is built, never a request's.
            preconditionFailure("\(endpoint.method) \(endpoint.pattern) is not a device endpoint: register it on SecuredRoutes")
        }
        table.document(endpoint.operation)
        add(endpoint.method, endpoint.pattern) { request, context in
            try await endpoint.respond(to: request, parameters: context.parameters, context: context, with: handler)
        }
    }

    func handle<Body, Answer>(_ endpoint: APIEndpoint<Body, Answer>,
                              _ handler: @escaping @Sendable (Body, Request, DeviceRequestContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (_: NoValues, body, request, context) in try await handler(body, request, context) }
    }

    func handle<Answer>(_ endpoint: APIEndpoint<NoBody, Answer>,
                        _ handler: @escaping @Sendable (Request, DeviceRequestContext) async throws -> Reply<Answer>) {
        handle(endpoint) { (_: NoValues, _: NoBody, request, context) in try await handler(request, context) }
    }
}
