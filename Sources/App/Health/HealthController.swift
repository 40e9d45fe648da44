import Hummingbird

/// Checks for load balancers and orchestrators, open to anyone and saying nothing about the
/// database's address:
/// - `GET /healthz`, liveness: answers as long as the server can serve requests. It deliberately
///   does not touch the database, so a slow query or a database restart cannot get a healthy
///   process restarted.
/// - `GET /readyz`, readiness: 200 when this console can reach its database and is not shutting
///   down; 503 otherwise, so a balancer sends new work to another instance.
struct HealthController {
    struct Status: Encodable {
        let status: String
    }

    let readiness: Readiness

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Health.live) { _, _ in try .json(Status(status: "ok")) }
        routes.on(Site.Health.ready) { _, _ in
            let state = await readiness.check()
            var response = try Response.json(Status(status: state.rawValue), status: state == .ready ? .ok : .serviceUnavailable)
            // A balancer must see each answer afresh, never one a cache kept.
            response.headers[.cacheControl] = "no-store"
            return response
        }
    }
}
