import Hummingbird

/// `GET /healthz` for load balancers: answers as long as the server can serve requests.
/// It deliberately does not touch the database, so a slow query cannot take the node out.
struct HealthController {
    struct Status: Encodable {
        let status = "ok"
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/healthz", .anyone) { _, _ in try .json(Status()) }
    }
}
