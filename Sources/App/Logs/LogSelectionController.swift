import Domain
import Foundation
import Hummingbird
import Storage

/// What helpdesk does with log lines beyond reading them: download the chosen lines or every
/// line matching the viewer's filter (NDJSON or plain text, streamed), and — admins only —
/// delete them after a confirmation that states how many lines go.
struct LogSelectionController {
    let logReader: LogReader
    let now: @Sendable () -> Date
    let cookies: CookieJar
    let logRemoval: LogRemoval
    let renderer: PageRenderer

    struct ConfirmView {
        let count: Int
        let countText: String
        let summary: String
        /// Where the confirmed form posts: the filter rides in its query string.
        let action: String
        let chosenLines: [String]
        let cancelPath: String
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Logs.exportMatching, use: exportMatching)
        routes.on(Site.Logs.exportChosen, use: exportChosen)
        routes.on(Site.Logs.confirmDeletion, use: confirmMatching)
        routes.on(Site.Logs.delete, use: delete)
    }

    @Sendable func exportMatching(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try LogFilter(request.uri.formParameters, strict: false)
        // A search the viewer cannot read is explained there, not exported as "nothing".
        if filter.searchProblem != nil { return .seeOther(Site.Logs.index.link() + "?" + request.uri.query.orEmpty) }
        let format = request.uri.formParameters["format"].flatMap { LogExport.Format(rawValue: String($0)) } ?? .ndjson
        return try await LogDownload.response(.matching(filter), as: format, reader: logReader, now: now())
    }

    @Sendable func exportChosen(request: Request, context: SignedInContext) async throws -> Response {
        // The page sends a format from its list and its own address; anything else was not typed by a person.
        guard let format = LogExport.Format(rawValue: context.form["format"].isEmpty ? "ndjson" : context.form["format"]) else {
            throw HTTPError(.badRequest, message: "Choose NDJSON or plain text.")
        }
        let back = context.form["back"].isEmpty ? Site.Logs.index.link() : context.form["back"]
        guard LocalPath.isLocal(back) else { throw HTTPError(.badRequest, message: "The page to return to must be on this site.") }
        guard let lines = chosenLines(context.form) else {
            return .seeOther(back, flash: .error("Tick the lines to download first (at most \(LogDownload.maximumChosen))."),
                             cookies: cookies, request: request)
        }
        return try await LogDownload.response(.lines(lines), as: format, reader: logReader, now: now())
    }

    /// "Delete every matching line…": the confirmation, with the count.
    @Sendable func confirmMatching(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try LogFilter(request.uri.formParameters, strict: false)
        if filter.searchProblem != nil { return .seeOther(Site.Logs.index.link() + "?" + request.uri.query.orEmpty) }
        return try await confirmation(.matching(filter), request: request, context: context)
    }

    /// Chosen lines arrive here unconfirmed from the viewer (answered with the confirmation),
    /// and confirmed deletions of chosen or matching lines from the confirmation page.
    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let selection: LogRemoval.Selection
        var filter = try LogFilter(request.uri.formParameters, strict: false)
        filter.before = nil
        if !context.form.all("line").isEmpty {
            guard let lines = chosenLines(context.form) else {
                return .seeOther(Site.Logs.index.link(), flash: .error("Choose at most \(LogDownload.maximumChosen) lines, or delete by filter."),
                                 cookies: cookies, request: request)
            }
            selection = .lines(lines)
        } else if context.form["scope"] == "matching", filter.searchProblem == nil {
            selection = .matching(filter)
        } else {
            return .seeOther(Site.Logs.index.link(), flash: .error("Tick the lines to delete first."), cookies: cookies, request: request)
        }
        guard context.form["confirmed"] == "yes" else { return try await confirmation(selection, request: request, context: context) }
        // The audit entry's words only: counting every matching line again would cost what the confirmation did.
        let labels = try await logReader.labels(of: selection)
        let removed = try await logRemoval.delete(selection, describedAs: Self.summary(selection, labels: labels), by: Actor(context.user))
        let back = if case .matching = selection { Site.Logs.index.link() + "?" + filter.query(before: nil) } else { Site.Logs.index.link() }
        return .seeOther(back, flash: .notice("Deleted \(removed) log line\(removed == 1 ? "" : "s")."), cookies: cookies, request: request)
    }

    private func confirmation(_ selection: LogRemoval.Selection, request: Request, context: SignedInContext) async throws -> Response {
        let preview = try await logReader.deletionPreview(selection)
        // Chosen lines ride as hidden fields; a filter rides in the form's address.
        var chosen: [String] = [], query = ""
        switch selection {
        case .lines(let ids): chosen = ids.map(\.description)
        case .matching(let filter): query = filter.query(before: nil)
        }
        let suffix = query.isEmpty ? "" : "?" + query
        let view = ConfirmView(count: preview.count, countText: Self.lines(preview.count), summary: Self.summary(selection, labels: preview.labels),
                               action: Site.Logs.confirmDeletion.link() + suffix, chosenLines: chosen, cancelPath: Site.Logs.index.link() + suffix)
        return try renderer.page("logs/delete", title: "Delete log lines", model: view, request: request, context: context)
    }

    private static func lines(_ count: Int) -> String {
        count == 1 ? "1 line" : "\(count.formatted()) lines"
    }

    static func summary(_ selection: LogRemoval.Selection, labels: LogReader.SelectionLabels) -> String {
        switch selection {
        case .lines(let ids): "\(ids.count) chosen line\(ids.count == 1 ? "" : "s")"
        case .matching(let filter): filter.summary(deviceName: labels.deviceName, appName: labels.appName)
        }
    }

    /// The ticked lines, or nil when none (or too many, or not ids) were sent.
    private func chosenLines(_ form: FormFields) -> [RecordID<DeviceLogRecord>]? {
        let values = form.all("line")
        let ids = values.compactMap { RecordID<DeviceLogRecord>($0) }
        guard !ids.isEmpty, ids.count == values.count, ids.count <= LogDownload.maximumChosen else { return nil }
        return Array(Set(ids)).sorted { $0.rawValue < $1.rawValue }
    }
}

private extension Optional where Wrapped == String {
    var orEmpty: String { self ?? "" }
}
