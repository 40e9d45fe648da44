import Hummingbird

extension SecuredRoutes {
    /// Registers the handler of a declared page or action: the role it declares checked, and
    /// the values of its address read before the handler runs.
    func on<Values>(_ route: SiteRoute<Values>,
                    use handler: @escaping @Sendable (Values, Request, SignedInContext) async throws -> Response) {
        add(route.method, route.pattern, route.role) { request, context in
            try await handler(try route.values(in: context.parameters), request, context)
        }
    }

    /// A page or action whose address carries no values.
    func on(_ route: SiteRoute<NoValues>, use handler: @escaping SignedInHandler) {
        add(route.method, route.pattern, route.role, handler)
    }

    /// A page or action whose address carries two values, handed to the handler apart.
    func on<First, Second>(_ route: SiteRoute<PathPair<First, Second>>,
                           use handler: @escaping @Sendable (First, Second, Request, SignedInContext) async throws -> Response) {
        on(route) { (values: PathPair<First, Second>, request, context) in try await handler(values.first, values.second, request, context) }
    }

    /// A route open to everyone.
    func on(_ route: OpenRoute, use handler: @escaping PageHandler) {
        addOpen(route.method, route.path, handler)
    }
}
