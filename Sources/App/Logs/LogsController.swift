import Domain
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache
import Storage

/// The log viewer for helpdesk: what devices uploaded, newest first, filtered by device, app,
/// level, type and time, searched by full text with the matches marked, fifty lines a page
/// with "load more" appending the next page in place (a plain link without JavaScript).
struct LogsController {
    let logReader: LogReader
    let catalogReader: CatalogReader
    let renderer: PageRenderer
    static let pageSize = 50

    struct View {
        let rowsHTML: String
        let isEmpty: Bool
        let deviceName: String?
        let deviceID: String?
        let everyDevicePath: String
        let apps: [SelectOption]
        let levels: [SelectOption]
        let kinds: [SelectOption]
        let from: String
        let to: String
        /// How many of the folded filters are on ("2"), nil when none is: the fold opens then.
        let foldedFiltersOn: String?
        let searchText: String
        let searchError: String?
        let isFiltered: Bool
        let nextPage: String?
        /// With an app chosen: its latest crash groups, where to see them all, and a cap warning.
        let crashGroupsHTML: String?
        let crashGroupsPath: String?
        /// The crash groups button: with the viewer's app and device, so a device's logs lead
        /// to that device's crash groups.
        let allCrashGroupsPath: String
        let capWarning: String?
        /// While many lines wait for the full-text index: searches include them, more slowly.
        let indexNotice: String?
        /// With one crash group chosen: its signature, and the page without it.
        let signature: String?
        let withoutSignaturePath: String?
        /// Downloads and (admins) deletion of every matching line; the chosen lines' form returns to `backPath`.
        let downloadNDJSONPath: String
        let downloadTextPath: String
        let deleteMatchingPath: String?
        let backPath: String
    }

    /// Crash groups the app's log page shows above its lines.
    static let crashSummary = 5

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Logs.index, use: index)
    }

    @Sendable func index(request: Request, context: SignedInContext) async throws -> Response {
        // Read leniently, a wrong value is no filter; only a search that cannot be read is said.
        let filter = try LogFilter(request.uri.formParameters, strict: false)
        var searchError = filter.searchProblem
        let rowsOnly = request.uri.formParameters["rows"] == "only"
        let summary = filter.app != nil && filter.signature == nil && filter.before == nil && !rowsOnly ? Self.crashSummary : 0
        var found = LogReader.Page()
        do { found = try await logReader.page(filter, limit: Self.pageSize, appSummary: summary) } catch let error as StorageError where filter.search != nil {
            // The translator writes only quoted terms and operators, so this is not
            // expected; if SQLite still refuses a search, the person gets a sentence.
            context.logger.error("Log search refused by SQLite", metadata: ["error": "\(error)"])
            searchError = "This search could not be run. Try fewer words or without brackets."
        }
        let (rows, deviceName, catalog) = (found.rows, found.deviceName, found.catalog)
        let page = rows.prefix(Self.pageSize)
        let names = catalog.namesByBundleID
        // Lines that say where their device was are told what its geofence makes of the place.
        let placed = Set(page.filter { GeoPoint.firstMentioned(in: $0.line.message) != nil }.compactMap(\.line.deviceID))
        let fences = try await catalogReader.geofences(of: placed)
        let rowsHTML = page.map { row in
            LogRowHTML.row(row, appName: names[row.line.app], geofence: row.line.deviceID.flatMap { fences[$0] })
        }.joined()
        let nextPage = rows.count > Self.pageSize ? page.last.map { Site.Logs.index.link() + "?" + filter.query(before: $0.line.id) } : nil
        // "Load more" asks for the next rows alone, to append them where they belong.
        if rowsOnly {
            var headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"]
            if let nextPage { headers[HTTPField.Name("X-Next-Page")!] = nextPage }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: rowsHTML)))
        }
        let view = View(
            rowsHTML: rowsHTML, isEmpty: page.isEmpty,
            deviceName: deviceName, deviceID: filter.device?.description, everyDevicePath: Site.Logs.index.link(),
            apps: [SelectOption(value: "", label: "Every app", selected: filter.app == nil)]
                + catalog.map { SelectOption(value: $0.bundleID, label: $0.name, selected: $0.bundleID == filter.app) },
            levels: [SelectOption(value: "", label: "Every level", selected: filter.level == nil)]
                + LogLevel.allCases.map { SelectOption(value: $0.rawValue, label: "\($0.displayName) and more severe", selected: $0 == filter.level) },
            kinds: [SelectOption(value: "", label: "App and crash logs", selected: filter.kind == nil),
                    SelectOption(value: "application", label: "App logs", selected: filter.kind == .application),
                    SelectOption(value: "crash", label: "Crash logs", selected: filter.kind == .crash)],
            from: filter.from.map(Self.inputValue) ?? "", to: filter.to.map(Self.inputValue) ?? "",
            foldedFiltersOn: filter.foldedFilterCount == 0 ? nil : String(filter.foldedFilterCount),
            searchText: filter.searchText, searchError: searchError,
            isFiltered: filter.isFiltered || searchError != nil, nextPage: nextPage,
            crashGroupsHTML: found.crashGroups.isEmpty ? nil
                : found.crashGroups.map { CrashGroupsController.rowHTML($0, appName: nil, showApp: false, device: filter.device) }.joined(),
            crashGroupsPath: filter.app.map { Site.Logs.crashGroups(app: $0, device: filter.device) },
            allCrashGroupsPath: Site.Logs.crashGroups(app: filter.app, device: filter.device),
            capWarning: found.capWarning.map { $0.message(appName: names[$0.app] ?? $0.app) },
            indexNotice: filter.search == nil ? nil : found.indexLag.notice,
            signature: filter.signature, withoutSignaturePath: filter.signature.map { _ in
                var without = filter
                without.signature = nil
                return Site.Logs.index.link() + "?" + without.query(before: nil)
            },
            downloadNDJSONPath: Site.Logs.exportMatching.link() + "?" + Self.joined(filter.query(before: nil), "format=ndjson"),
            downloadTextPath: Site.Logs.exportMatching.link() + "?" + Self.joined(filter.query(before: nil), "format=text"),
            deleteMatchingPath: context.user.role.includes(.admin) ? Site.Logs.confirmDeletion.link() + "?" + filter.query(before: nil) : nil,
            backPath: Site.Logs.index.link() + "?" + filter.query(before: nil))
        return try renderer.page("logs/index", title: "App logs", model: view, request: request, context: context,
                                          status: searchError == nil ? .ok : .unprocessableContent)
    }

    private static func joined(_ query: String, _ item: String) -> String {
        query.isEmpty ? item : query + "&" + item
    }

    /// A time as a `datetime-local` box shows it; the page's script sends the browser's zone.
    static func inputValue(_ date: Date) -> String {
        String(DisplayTime.iso(date).prefix(16))
    }
}

// The log viewer is the page helpdesk keeps open: its model answers the template engine
// directly rather than through reflection (a fifth of the page's time, Benchmarks/README.md).
extension LogsController.View: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "rowsHTML": rowsHTML
        case "isEmpty": isEmpty
        case "deviceName": deviceName
        case "deviceID": deviceID
        case "everyDevicePath": everyDevicePath
        case "apps": apps
        case "levels": levels
        case "kinds": kinds
        case "from": from
        case "to": to
        case "foldedFiltersOn": foldedFiltersOn
        case "searchText": searchText
        case "searchError": searchError
        case "isFiltered": isFiltered
        case "nextPage": nextPage
        case "crashGroupsHTML": crashGroupsHTML
        case "crashGroupsPath": crashGroupsPath
        case "allCrashGroupsPath": allCrashGroupsPath
        case "capWarning": capWarning
        case "indexNotice": indexNotice
        case "signature": signature
        case "withoutSignaturePath": withoutSignaturePath
        case "downloadNDJSONPath": downloadNDJSONPath
        case "downloadTextPath": downloadTextPath
        case "deleteMatchingPath": deleteMatchingPath
        case "backPath": backPath
        default: nil
        }
    }
}
