import Foundation

extension OpenAPIDocument {
    /// The load balancer's checks: open to anyone, no credentials, nothing about the database's
    /// address. Worded from `Readiness` itself, so the document says what the check does.
    static var checkPaths: [String: [String: OpenAPI.Operation]] {
        var status = JSONSchema.of(.object)
        status.properties = ["status": .string]
        status.required = ["status"]
        let (unreachable, stopping) = (Readiness.State.databaseUnreachable.rawValue, Readiness.State.shuttingDown.rawValue)
        let limit = Int(Readiness.timeout.seconds * 1000)
        return [
            Site.Health.live.path: ["get": OpenAPI.Operation(
                summary: "Liveness: answers while the process serves requests; never touches the database",
                responses: ["200": .json(#"Alive ({"status": "ok"})"#, status)], security: [])],
            Site.Health.ready.path: ["get": OpenAPI.Operation(
                summary: "Readiness: whether a load balancer should send this instance work",
                description: "200 when this instance reaches its database within \(limit) ms; 503 when it does not (status \(unreachable)) or once it has begun shutting down (status \(stopping)), while requests in flight finish.",
                responses: [
                    "200": .json(#"Ready ({"status": "\#(Readiness.State.ready.rawValue)"})"#, status),
                    "503": .json("Not ready: \(unreachable) or \(stopping)", status),
                ], security: [])],
        ]
    }
}
