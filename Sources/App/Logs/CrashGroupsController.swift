import Domain
import Foundation
import Hummingbird
import Storage

/// Crash logs grouped by what crashed (their signature): how often, on how many devices, in
/// which app versions, first and last seen. For an app it is the first thing helpdesk looks
/// at, so the app's log page shows its latest groups too (`LogsController`).
struct CrashGroupsController {
    let now: @Sendable () -> Date
    let logReader: LogReader
    let renderer: PageRenderer
    static let limit = 200

    /// The windows the page offers, in hours; nil is everything still stored.
    static let windows: [(hours: Int?, label: String)] = [(nil, "Everything stored"), (24, "Last 24 hours"), (24 * 7, "Last 7 days")]

    struct View {
        let rowsHTML: String
        let isEmpty: Bool
        let apps: [SelectOption]
        let windows: [SelectOption]
        let appName: String?
        /// With a device chosen: its name, its id for the form, and the page for every device.
        let deviceName: String?
        let deviceID: String?
        let everyDevicePath: String?
        let linesPath: String
        let isTruncated: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Logs.crashGroups, use: index)
    }

    @Sendable func index(request: Request, context: SignedInContext) async throws -> Response {
        let parameters = request.uri.formParameters
        let app = parameters["app"].map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        let hours = parameters["hours"].flatMap { Int(String($0)) }.flatMap { chosen in Self.windows.contains { $0.hours == chosen } ? chosen : nil }
        let since = hours.map { now().addingTimeInterval(-Double($0) * 3600) }
        // Read leniently, as the log viewer reads it: a device id that is not one is no filter.
        let device = parameters["device"].flatMap { RecordID<DeviceRecord>(String($0)) }
        let (groups, catalog, deviceName) = try await logReader.crashGroups(app: app, device: device, since: since, limit: Self.limit + 1)
        let names = catalog.namesByBundleID
        let shown = groups.prefix(Self.limit)
        var linesFilter = LogFilter()
        (linesFilter.app, linesFilter.kind, linesFilter.device) = (app, .crash, device)
        let view = View(
            rowsHTML: shown.map { Self.rowHTML($0, appName: names[$0.app], showApp: app == nil, device: device) }.joined(),
            isEmpty: shown.isEmpty,
            apps: [SelectOption(value: "", label: "Every app", selected: app == nil)]
                + catalog.map { SelectOption(value: $0.bundleID, label: $0.name, selected: $0.bundleID == app) },
            windows: Self.windows.map { SelectOption(value: $0.hours.map(String.init) ?? "", label: $0.label, selected: $0.hours == hours) },
            appName: app.map { names[$0] ?? $0 },
            deviceName: device.map { _ in deviceName ?? "a removed device" }, deviceID: device?.description,
            everyDevicePath: device.map { _ in Site.Logs.crashGroups(app: app, device: nil, hours: hours) },
            linesPath: Site.Logs.index.link() + "?" + linesFilter.query(before: nil),
            isTruncated: groups.count > Self.limit)
        return try renderer.page("logs/crashes", title: "Crash groups", model: view, request: request, context: context)
    }

    /// A group as an escaped table row whose signature opens the group's crash logs (of
    /// `device` alone when the groups are one device's).
    static func rowHTML(_ group: LogQueries.CrashGroup, appName: String?, showApp: Bool, device: RecordID<DeviceRecord>? = nil) -> String {
        var filter = LogFilter()
        (filter.app, filter.kind, filter.signature, filter.device) = (group.app, .crash, group.signature, device)
        let versions = group.versions.map { $0.split(separator: ",").sorted { $0.compare($1, options: .numeric) == .orderedAscending }.joined(separator: ", ") }
        let appCell = showApp ? "<td>\(HTMLText.escape(appName ?? group.app))</td>" : ""
        return "<tr><td><a class=\"crash-signature\" href=\"\(HTMLText.escape(Site.Logs.index.link() + "?" + filter.query(before: nil)))\"><code>\(HTMLText.escape(group.signature))</code></a></td>"
            + appCell
            + "<td class=\"number\">\(group.occurrences)</td><td class=\"number\">\(group.devices)</td>"
            + (versions.map { "<td>\(HTMLText.escape($0))</td>" } ?? "<td class=\"muted\">version not reported</td>")
            + "<td>\(timeHTML(group.firstSeen))</td><td>\(timeHTML(group.lastSeen))</td></tr>\n"
    }

    static func timeHTML(_ date: Date) -> String {
        let iso = DisplayTime.iso(date)
        return "<time datetime=\"\(iso)\" title=\"\(iso)\">\(iso)</time>"
    }
}
