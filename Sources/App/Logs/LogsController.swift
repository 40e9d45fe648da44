import Domain
import Foundation
import Hummingbird
import Mustache
import Storage

/// The log store for helpdesk: app and crash logs devices uploaded, newest first, filtered by
/// device, app, level and type, paged by id so the thousandth page costs what the first does.
struct LogsController {
    let services: Services
    static let pageSize = 100

    struct Filter {
        var device: RecordID<DeviceRecord>?
        var app: String?
        /// The least severe level shown; more severe ones are shown too.
        var level: LogLevel?
        var kind: SimulatedLog.Kind?
        var before: RecordID<DeviceLogRecord>?

        init(_ parameters: Parameters) {
            device = parameters["device"].flatMap { RecordID(String($0)) }
            app = parameters["app"].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
            level = parameters["level"].flatMap { LogLevel(rawValue: String($0)) }
            kind = parameters["kind"].flatMap { SimulatedLog.Kind(rawValue: String($0)) }
            before = parameters["before"].flatMap { RecordID(String($0)) }
        }

        var query: Query<DeviceLogRecord> {
            var query = DeviceLogRecord.query().order(by: "id", .descending).limit(LogsController.pageSize + 1)
            if let device { query = query.filter("deviceID", .equal, device) }
            if let app { query = query.filter("app", .equal, app) }
            if let level { query = query.filter("level", in: LogLevel.allCases.filter { $0 <= level }.map(\.rawValue)) }
            if let kind { query = query.filter("kind", .equal, kind.rawValue) }
            if let before { query = query.filter("id", .less, before) }
            return query
        }

        /// The same filter for the next page.
        func path(before id: RecordID<DeviceLogRecord>) -> String {
            var items = [URLQueryItem(name: "before", value: id.description)]
            if let device { items.append(URLQueryItem(name: "device", value: device.description)) }
            if let app { items.append(URLQueryItem(name: "app", value: app)) }
            if let level { items.append(URLQueryItem(name: "level", value: level.rawValue)) }
            if let kind { items.append(URLQueryItem(name: "kind", value: kind.rawValue)) }
            var components = URLComponents()
            components.path = Paths.logs
            components.queryItems = items
            return components.string ?? Paths.logs
        }
    }

    struct Option {
        let value: String
        let label: String
        let selected: Bool
    }

    struct View {
        let rowsHTML: String
        let isEmpty: Bool
        let deviceName: String?
        let deviceID: String?
        let apps: [Option]
        let levels: [Option]
        let kinds: [Option]
        let isFiltered: Bool
        let nextPage: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.get("/logs", role: .helpdesk) { request, context in
            let filter = Filter(request.uri.queryParameters)
            let (logs, deviceName, catalog) = try await LogReader(database: services.database).page(filter.query, device: filter.device)
            let page = logs.prefix(Self.pageSize)
            let names = Dictionary(catalog.map { ($0.bundleID, $0.name) }, uniquingKeysWith: { first, _ in first })
            let view = View(
                rowsHTML: page.map { Self.rowHTML($0, appName: names[$0.app]) }.joined(),
                isEmpty: page.isEmpty,
                deviceName: deviceName, deviceID: filter.device?.description,
                apps: [Option(value: "", label: "Every app", selected: filter.app == nil)]
                    + catalog.map { Option(value: $0.bundleID, label: $0.name, selected: $0.bundleID == filter.app) },
                levels: [Option(value: "", label: "Every level", selected: filter.level == nil)]
                    + LogLevel.allCases.map { Option(value: $0.rawValue, label: "\($0.displayName) and more severe", selected: $0 == filter.level) },
                kinds: [Option(value: "", label: "App and crash logs", selected: filter.kind == nil),
                        Option(value: "application", label: "App logs", selected: filter.kind == .application),
                        Option(value: "crash", label: "Crash logs", selected: filter.kind == .crash)],
                isFiltered: filter.device != nil || filter.app != nil || filter.level != nil || filter.kind != nil,
                nextPage: logs.count > Self.pageSize ? page.last?.id.map { filter.path(before: $0) } : nil)
            return try services.renderer.page("logs/index", title: "App logs", model: view, request: request, context: context)
        }
    }

    /// Rows as escaped HTML: a page holds a hundred of them (see `Benchmarks/README.md`).
    static func rowHTML(_ log: DeviceLogRecord, appName: String?) -> String {
        let device = log.deviceID.map { "<a href=\"\(Paths.device($0))\">\(HTMLText.escape(log.deviceName))</a>" }
            ?? "\(HTMLText.escape(log.deviceName)) <span class=\"muted\">(removed)</span>"
        let app = appName.map { "\(HTMLText.escape($0))<br><code class=\"small\">\(HTMLText.escape(log.app))</code>" } ?? "<code>\(HTMLText.escape(log.app))</code>"
        let iso = DisplayTime.iso(log.loggedAt)
        return "<tr class=\"log-\(log.level.rawValue)\"><td><time datetime=\"\(iso)\">\(HTMLText.escape(iso))</time></td><td>\(device)</td><td>\(app)</td>"
            + "<td><span class=\"level level-\(log.level.rawValue)\">\(log.level.displayName)</span>\(log.kind == .crash ? " <span class=\"tag\">crash</span>" : "")</td>"
            + "<td class=\"log-message\">\(HTMLText.escape(log.message))</td></tr>\n"
    }
}
