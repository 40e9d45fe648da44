import Domain
import Foundation
import Hummingbird
import Storage

/// The log viewer for scripts: `GET /api/v1/logs` with the viewer's filters, newest first, a
/// page at a time (follow `next`); the same filters streamed as a download; crash groups; and
/// deletion (admin).
struct LogsAPIController {
    let logReader: LogReader
    let now: @Sendable () -> Date
    let logRemoval: LogRemoval

    static let list = APIEndpoint<NoBody, LogPage>(
        .get, "/api/v1/logs", role: .helpdesk, "Log lines devices uploaded, newest first, a page at a time (follow next)",
        parameters: ["log filters", "limit"],
        otherAnswers: [400: "invalid_query (field names the parameter) or invalid_search (q could not be read; the message says why)"])
    static let export = APIEndpoint<NoBody, FileAnswer<LogExport.Format>>(
        .get, "/api/v1/logs/export", role: .helpdesk,
        "Every line matching the filters, oldest first, streamed as NDJSON (the fields of GET /api/v1/logs) or plain text",
        parameters: ["log filters"], query: [.query("format", .names(of: LogExport.Format.self), "Default ndjson")],
        otherAnswers: [400: "invalid_query (field names the parameter) or invalid_search"])
    static let crashGroups = APIEndpoint<NoBody, CrashGroupList>(
        .get, "/api/v1/logs/crashes", role: .helpdesk, "Crash groups: crash logs grouped by signature, most recently seen first",
        parameters: ["limit"], query: [
            .query("app", JSONSchema(types: [.string], minLength: 1), "Only this app's groups"),
            .query("device", OpenAPIDocument.idSchema, "Only this device's crashes (its id); each group's logs link keeps it"),
            .query("hours", JSONSchema(types: [.integer], minimum: 1, maximum: 24 * 366), "Only crashes logged in the last this many hours"),
        ])
    static let delete = APIEndpoint<NoBody, DeletedLines>(
        .delete, "/api/v1/logs", role: .admin,
        "Delete the lines matching the filters, or the lines named by repeated line=ID (at most \(LogDownload.maximumChosen)); with neither, all=true deletes every line. Removed in small batches; audited.",
        parameters: ["log filters"], query: [
            OpenAPI.Parameter(name: "line", location: .query, required: false, schema: .array(of: OpenAPIDocument.idSchema),
                              description: "Ids of lines to delete (instead of filters)", repeated: true),
            .query("all", .boolean, "true to delete every line when no filter is given"),
        ], otherAnswers: [400: "invalid_query, invalid_search, or filter_required (no filter, no line and no all=true)"])

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.list) { request, _ in Reply(try await list(request)) }
        routes.handle(Self.export) { request, _ in
            let filter = try Self.filter(of: request)
            let format = try request.uri.formParameters["format"].map { text in
                guard let format = LogExport.Format(rawValue: String(text)) else {
                    throw APIError(status: .badRequest, code: .invalidQuery, message: "format must be ndjson or text.", field: "format")
                }
                return format
            } ?? .ndjson
            return Reply(try await LogDownload.answer(.matching(filter), as: format, reader: logReader, now: now()))
        }
        routes.handle(Self.crashGroups) { request, _ in Reply(try await crashGroups(request)) }
        routes.handle(Self.delete) { request, context in Reply(try await delete(request, by: Actor(context.user))) }
    }

    /// The filter in the query string; 400 naming the parameter it cannot read.
    static func filter(of request: Request) throws -> LogFilter {
        do { return try LogFilter(request.uri.formParameters, strict: true) } catch {
            throw APIError(status: .badRequest, code: error.parameter == "q" ? .invalidSearch : .invalidQuery,
                           message: error.message, field: error.parameter)
        }
    }

    private func list(_ request: Request) async throws -> LogPage {
        let filter = try Self.filter(of: request)
        let limit = try APIQuery.limit(of: request)
        let (rows, lag) = try await logReader.rows(filter, limit: limit)
        let page = rows.prefix(limit)
        let next = rows.count > limit ? page.last.map { Self.list.link() + "?" + filter.query(before: $0.line.id) + "&limit=\(limit)" } : nil
        return LogPage(logs: page.map { StoredLogLine($0.line) }, next: next, index: LogPage.IndexLag(lag))
    }

    private func crashGroups(_ request: Request) async throws -> CrashGroupList {
        let app = request.uri.formParameters["app"].map(String.init)
        if app?.isEmpty == true {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "app is empty; leave it out for every app.", field: "app")
        }
        let hours = try APIQuery.integer("hours", of: request, in: 1...24 * 366)
        let since = hours.map { now().addingTimeInterval(-Double($0) * 3600) }
        let limit = try APIQuery.limit(of: request)
        let device: RecordID<DeviceRecord>? = try APIQuery.id("device", of: request)
        let (groups, _, _) = try await logReader.crashGroups(app: app, device: device, since: since, limit: limit)
        return CrashGroupList(crashGroups: groups.map { CrashGroupAnswer($0, device: device) })
    }

    /// Deletes every line matching the filter, or the `line` ids given; a request with neither
    /// must say `all=true`, so a forgotten filter never empties the store.
    private func delete(_ request: Request, by actor: Actor) async throws -> DeletedLines {
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
        let labels = try await logReader.labels(of: selection)
        return DeletedLines(deleted: try await logRemoval.delete(selection, describedAs: LogSelectionController.summary(selection, labels: labels), by: actor))
    }
}

/// An export's two formats, as the document shows them.
extension LogExport.Format: FileFormat {
    static let summary = "The lines"

    static func content(_ reader: SchemaReader) throws -> [String: OpenAPI.MediaType] {
        let line = String(decoding: try APIAnswerCoding.encoder.encode(StoredLogLine.example), as: UTF8.self)
        return [
            "application/x-ndjson": OpenAPI.MediaType(schema: .string, example: .string(line + "\n")),
            "text/plain": OpenAPI.MediaType(schema: .string, example: .string("2026-11-23T09:30:05Z ERROR Ward 3 iPad  com.example.clinicnotes 2.4: Sync failed: E_TIMEOUT after 30 s\n")),
        ]
    }
}
