import Domain
import Foundation
import Hummingbird
import Storage

/// The log viewer for scripts: `GET /api/v1/logs` with the viewer's filters, newest first, a
/// page at a time (follow `next`).
struct LogsAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.get("/api/v1/logs", role: .helpdesk, use: list)
    }

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        let filter: LogFilter
        do { filter = try LogFilter(request.uri.queryParameters, strict: true) } catch {
            throw APIError(status: .badRequest, code: error.parameter == "q" ? "invalid_search" : "invalid_query",
                           message: error.message, field: error.parameter)
        }
        let limit = try APIQuery.limit(of: request)
        let rows = try await services.logReader.rows(filter, limit: limit)
        let page = rows.prefix(limit)
        var body: [String: Any] = ["logs": page.map { Self.json($0.line) }]
        if rows.count > limit, let last = page.last?.line.id {
            body["next"] = "/api/v1/logs?" + filter.query(before: last) + "&limit=\(limit)"
        }
        return try .jsonObject(body)
    }

    static func json(_ log: DeviceLogRecord) -> [String: Any] {
        return ["id": log.id!.rawValue, "deviceID": log.deviceID.map { $0.rawValue as Any } ?? NSNull(), "deviceName": log.deviceName,
                "app": log.app, "appVersion": log.appVersion, "level": log.level.rawValue, "type": log.kind.rawValue,
                "timestamp": DisplayTime.iso(log.loggedAt), "receivedAt": DisplayTime.iso(log.receivedAt),
                "message": log.message, "fields": log.fields ?? [:], "signature": log.signature as Any? ?? NSNull()]
    }
}
