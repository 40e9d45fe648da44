import Foundation
import Storage

/// The dashboard's health strip: what in the fleet needs someone now, each figure counted by
/// the same filter the list it links to shows, so the number and the list always agree.
struct FleetHealth: Sendable {
    struct Signal: Sendable {
        /// What is counted, for one and for several: "device in a policy conflict".
        let one: String
        let many: String
        let count: Int
        let href: String
        /// What the figure says when it is zero, so a healthy fleet reads as good news.
        let allClear: String

        var text: String { count == 0 ? allClear : "\(count.formatted()) \(count == 1 ? one : many)" }
    }

    let signals: [Signal]

    /// The device signals for everyone; crash groups and log caps only for those who read logs
    /// (`logFigures` is nil for the others).
    static func load(in connection: Connection, contents: ProfileContentCache, now: Date, logFigures: LogFigures?,
                     isAdmin: Bool) throws -> FleetHealth {
        let groups = try connection.fetch(DeviceGroupRecord.query())
        let policies = try CatalogReader.groupPolicies(groups, connection: connection, contents: contents)
        func devices(_ configure: (inout DeviceListFilter) -> Void) throws -> (count: Int, href: String) {
            var filter = DeviceListFilter()
            configure(&filter)
            let scope = CatalogQueries.DeviceListScope(filter, groups: groups, policies: policies, now: now)
            let count = try connection.scalar(CatalogQueries.deviceCount(filter, scope: scope, dialect: connection.dialect), as: Int.self) ?? 0
            return (count, Site.Devices.list.link() + "?" + filter.query(after: nil))
        }
        let conflicts = try devices { $0.conflictOnly = true }
        let waiting = try devices { $0.waitingOnly = true }
        let quiet = try devices { ($0.notCheckedInDays, $0.sort, $0.descending) = (1, .checkIn, false) }
        let outOfStep = try devices { $0.kind = .outOfStep }
        var signals = [
            Signal(one: "device in a policy conflict", many: "devices in a policy conflict", count: conflicts.count, href: conflicts.href, allClear: "No policy conflicts"),
            Signal(one: "device with installs or requests waiting", many: "devices with installs or requests waiting", count: waiting.count, href: waiting.href, allClear: "Nothing waiting"),
            Signal(one: "device not checked in for 24 hours", many: "devices not checked in for 24 hours", count: quiet.count, href: quiet.href, allClear: "Every device checked in today"),
            Signal(one: "real device out of step with its policy", many: "real devices out of step with their policy", count: outOfStep.count,
                   href: outOfStep.href, allClear: "No real device out of step"),
        ]
        if let logFigures {
            signals.append(Signal(one: "crash group in the last day", many: "crash groups in the last day", count: logFigures.crashGroupsLastDay,
                                  href: Site.Logs.crashGroups.link() + "?hours=24", allClear: "No crashes in the last day"))
            let capWarnings = logFigures.capWarnings
            let fullest = capWarnings.first.map { Site.Logs.index(app: $0.app) }
            signals.append(Signal(one: "app near its log cap", many: "apps near their log cap", count: capWarnings.count,
                                  href: isAdmin ? Site.Settings.page.link() : fullest ?? Site.Logs.index.link(), allClear: "Log storage has room"))
        }
        return FleetHealth(signals: signals)
    }
}
