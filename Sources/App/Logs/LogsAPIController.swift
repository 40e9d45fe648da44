import Domain
import Foundation
import Hummingbird
import Storage

/// The log viewer for scripts: `GET /api/v1/logs` with the viewer's filters, newest first, a
/// page at a time (follow `next`); the same filters streamed as a download; crash groups; and
/// deletion (admin).
struct LogsAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.get("/api/v1/logs", role: .helpdesk, use: list)
        routes.get("/api/v1/logs/export", role: .helpdesk, use: export)
        routes.get("/api/v1/logs/crashes", role: .helpdesk, use: crashGroups)
        routes.delete("/api/v1/logs", role: .admin, use: delete)
    }

    /// The filter in the query string; 400 naming the parameter it cannot read.
    static func filter(of request: Request) throws -> LogFilter {
        do { return try LogFilter(request.uri.formParameters, strict: true) } catch {
            throw APIError(status: .badRequest, code: error.parameter == "q" ? .invalidSearch : .invalidQuery,
                           message: error.message, field: error.parameter)
        }
    }

    @Sendable func list(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try Self.filter(of: request)
        let limit = try APIQuery.limit(of: request)
        let (rows, lag) = try await services.logReader.rows(filter, limit: limit)
        let page = rows.prefix(limit)
        var body: [String: Any] = ["logs": page.map { Self.json($0.line) }, "index": Self.json(lag)]
        if rows.count > limit, let last = page.last?.line.id {
            body["next"] = "/api/v1/logs?" + filter.query(before: last) + "&limit=\(limit)"
        }
        return try .jsonObject(body)
    }

    @Sendable func export(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try Self.filter(of: request)
        let format = try request.uri.formParameters["format"].map { text in
            guard let format = LogExport.Format(rawValue: String(text)) else {
                throw APIError(status: .badRequest, code: .invalidQuery, message: "format must be ndjson or text.", field: "format")
            }
            return format
        } ?? .ndjson
        return try await LogDownload.response(.matching(filter), as: format, reader: services.logReader, now: services.now)
    }

    @Sendable func crashGroups(request: Request, context: SignedInContext) async throws -> Response {
        let app = request.uri.formParameters["app"].map(String.init)
        if app?.isEmpty == true {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "app is empty; leave it out for every app.", field: "app")
        }
        let hours = try APIQuery.integer("hours", of: request, in: 1...24 * 366)
        let since = hours.map { services.now.addingTimeInterval(-Double($0) * 3600) } ?? .distantPast
        let limit = try APIQuery.limit(of: request)
        let device: RecordID<DeviceRecord>? = try APIQuery.id("device", of: request)
        let (groups, _, _) = try await services.logReader.crashGroups(app: app, device: device, since: since, limit: limit)
        return try .jsonObject(["crashGroups": groups.map { group -> [String: Any] in
            var filter = LogFilter()
            (filter.app, filter.kind, filter.signature, filter.device) = (group.app, .crash, group.signature, device)
            return ["app": group.app, "signature": group.signature, "crashes": group.occurrences, "devices": group.devices,
                    "appVersions": (group.versions ?? "").split(separator: ",").map(String.init),
                    "firstSeen": DisplayTime.iso(group.firstSeen), "lastSeen": DisplayTime.iso(group.lastSeen),
                    "logs": "/api/v1/logs?" + filter.query(before: nil)]
        }])
    }

    /// Deletes every line matching the filter, or the `line` ids given; a request with neither
    /// must say `all=true`, so a forgotten filter never empties the store.
    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try Self.filter(of: request)
        let lineValues = request.uri.formParameters.getAll("line")
        let selection: LogRemoval.Selection
        if !lineValues.isEmpty {
            let ids = lineValues.compactMap { RecordID<DeviceLogRecord>($0) }
            guard ids.count == lineValues.count, ids.count <= LogDownload.maximumChosen, !filter.isFiltered else {
                throw APIError(status: .badRequest, code: .invalidQuery,
                               message: "line must be log line ids (at most \(LogDownload.maximumChosen)), without other filters.", field: "line")
            }
            selection = .lines(ids)
        } else {
            let all = try APIQuery.bool("all", of: request)
            guard filter.isFiltered || all == true else {
                throw APIError(status: .badRequest, code: .filterRequired,
                               message: "Name the lines to delete with filters or line ids, or say all=true to delete every line.", field: nil)
            }
            selection = .matching(filter)
        }
        let labels = try await services.logReader.labels(of: selection)
        let deleted = try await services.logRemoval.delete(selection, describedAs: LogSelectionController.summary(selection, labels: labels),
                                                           by: Actor(context.user))
        return try .jsonObject(["deleted": deleted])
    }

    static func json(_ log: DeviceLogRecord) -> [String: Any] {
        return ["id": log.id.rawValue, "deviceID": log.deviceID.map { $0.rawValue as Any } ?? NSNull(), "deviceName": log.deviceName,
                "app": log.app, "appVersion": log.appVersion, "level": log.level.rawValue, "type": log.kind.rawValue,
                "timestamp": DisplayTime.iso(log.loggedAt), "receivedAt": DisplayTime.iso(log.receivedAt),
                "message": log.message, "fields": log.fields ?? [:], "signature": log.signature as Any? ?? NSNull()]
    }

    /// How far the full-text index is behind: the page is complete either way (lines not yet
    /// indexed are searched too), but searches are slower while many wait.
    static func json(_ lag: LogIndexLag) -> [String: Any] {
        ["upToDate": lag.unindexedLines == 0, "unindexedLines": lag.unindexedLines,
         "waitingSince": lag.waitingSince.map { DisplayTime.iso($0) as Any } ?? NSNull(), "message": lag.notice as Any? ?? NSNull()]
    }
}
