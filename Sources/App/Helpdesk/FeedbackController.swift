import Domain
import Foundation
import Hummingbird
import Storage

/// An app's managed feedback on one device over time: a chart per numeric value, drawn on the
/// server, and every fetch in a table (what a screen reader reads instead of the charts).
struct FeedbackController {
    let helpdeskReader: HelpdeskReader
    let renderer: PageRenderer
    /// The newest fetches a page shows.
    static let limit = 200

    struct Chart {
        let key: String
        let svg: String
    }

    struct View {
        let deviceName: String
        let devicePath: String
        let formAction: String
        let apps: [SelectOption]
        let appName: String
        let bundleID: String
        let charts: [Chart]
        let keys: [String]
        let rowsHTML: String
        let isEmpty: Bool
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.feedback, use: history)
    }

    @Sendable func history(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let app = request.uri.formParameters["app"].map(String.init) ?? ""
        let found = try await helpdeskReader.feedbackHistory(id, app: app, limit: Self.limit)
        let keys = Array(Set(found.reports.flatMap(\.feedback.keys))).sorted()
        let charts = keys.enumerated().compactMap { index, key -> Chart? in
            let points = found.reports.compactMap { report -> (at: Date, value: Double)? in
                guard case .number(let value)? = report.feedback[key] else { return nil }
                return (report.fetchedAt, value)
            }
            return points.isEmpty ? nil : Chart(key: key, svg: FeedbackChart.svg(key: key, points: points, titleID: "chart-\(index)"))
        }
        let rowsHTML = found.reports.reversed().map { report in
            let iso = DisplayTime.iso(report.fetchedAt)
            let cells = keys.map { key in "<td>\(report.feedback[key].map { HTMLText.escape(FeedbackText.display($0)) } ?? "<span class=\"muted\">—</span>")</td>" }
            return "<tr><th scope=\"row\"><time datetime=\"\(iso)\" title=\"\(iso)\">\(iso)</time>\(report.wasReset ? " <span class=\"tag\">reset</span>" : "")</th>"
                + cells.joined() + "</tr>\n"
        }.joined()
        let view = View(
            deviceName: found.device.name, devicePath: Site.Devices.show.link(id), formAction: Site.Devices.feedback.link(id),
            apps: found.apps.map { SelectOption(value: $0, label: $0, selected: $0 == app) },
            appName: found.app?.name ?? app, bundleID: app, charts: charts, keys: keys, rowsHTML: rowsHTML, isEmpty: found.reports.isEmpty)
        return try renderer.page("devices/feedback", title: "Feedback — \(found.device.name)", model: view, request: request, context: context)
    }
}
