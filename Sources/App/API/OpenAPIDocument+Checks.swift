extension OpenAPIDocument {
    /// The load balancer's checks: open to anyone, no credentials, nothing about the database's
    /// address. Worded from `Readiness` itself, so the document says what the check does.
    static var checkPaths: [String: Any] {
        let status: [String: Any] = ["type": "object", "required": ["status"], "properties": ["status": ["type": "string"]]]
        let (unreachable, stopping) = (Readiness.State.databaseUnreachable.rawValue, Readiness.State.shuttingDown.rawValue)
        let limit = Int(Readiness.timeout.seconds * 1000)
        return [
            "/healthz": ["get": ["summary": "Liveness: answers while the process serves requests; never touches the database",
                                 "security": [[String: [String]]](),
                                 "responses": ["200": ["description": "Alive ({\"status\": \"ok\"})"].merging(json(status)) { $1 }]]],
            "/readyz": ["get": ["summary": "Readiness: whether a load balancer should send this instance work",
                                "description": "200 when this instance reaches its database within \(limit) ms; 503 when it does not (status \(unreachable)) or once it has begun shutting down (status \(stopping)), while requests in flight finish.",
                                "security": [[String: [String]]](),
                                "responses": [
                                    "200": ["description": "Ready ({\"status\": \"\(Readiness.State.ready.rawValue)\"})"].merging(json(status)) { $1 },
                                    "503": ["description": "Not ready: \(unreachable) or \(stopping)"].merging(json(status)) { $1 },
                                ]]],
        ]
    }
}
