import Domain
import Foundation
import Hummingbird
import HummingbirdCore
import Storage

/// The device list helpdesk starts from: one search box, filters and sortable columns in the
/// address, keyset pages, and bulk actions on the ticked devices — request logs or feedback
/// (helpdesk), move to a group or send a command (admin).
struct DeviceListController {
    let now: @Sendable () -> Date
    let catalogReader: CatalogReader
    let renderer: PageRenderer
    let cookies: CookieJar
    let catalog: CatalogService
    let commands: CommandQueue
    static let pageSize = 50
    /// Ticked devices: more than a page's worth is a job for the filter.
    static let maximumBulk = 500
    /// Every device a filter finds: a fleet, not a database.
    static let maximumFilterBulk = 50_000

    struct SortLink {
        let label: String
        let path: String
        /// "ascending" or "descending" on the sorted column, for aria-sort; nil elsewhere.
        let direction: String?
    }

    struct OnlyMatch {
        let name: String
        let path: String
    }

    struct View {
        let rowsHTML: String
        let isEmpty: Bool
        let total: String
        /// "12 devices", or "12 devices match" / "1 device matches" under a filter.
        let totalText: String
        let isFiltered: Bool
        let search: String
        /// A search that found exactly one device: open it without reading the list.
        let onlyMatch: OnlyMatch?
        let groups: [SelectOption]
        let models: [SelectOption]
        let osVersions: [SelectOption]
        let supervised: [SelectOption]
        let locks: [SelectOption]
        let kinds: [SelectOption]
        let conflictOnly: Bool
        let waitingOnly: Bool
        let stale: String
        /// How many of the filters folded under "More filters" are on ("2"), nil when none is:
        /// the fold opens then, so no filter in force is out of sight.
        let foldedFiltersOn: String?
        let sortName: SortLink
        let sortModel: SortLink
        let sortCheckIn: SortLink
        let nextPage: String?
        let clearPath: String
        let backPath: String
        let canEdit: Bool
        let canAct: Bool
        let moveGroups: [SelectOption]
        let adminCommands: [SelectOption]
        let captureChoices: [SelectOption]
        /// The filter as the list applied it, and how many devices it found: what "every
        /// device the filter finds" acts on, and the most it may.
        let filterQuery: String
        let filterCount: Int
    }

    /// "Request logs" in bulk: what is kept now, or capture for one of these many minutes.
    static let captureMinutes = [15, 60, 240]
    static let bulkAdminCommands: [DeviceCommand.RequestType] = [.restartDevice, .clearGuidedAccessPasscode]

    /// The list's count as a sentence fragment: "12 devices", "1 device matches", "12 devices match".
    static func countText(_ total: Int, filtered: Bool) -> String {
        Counted.phrase(total, "device") + (filtered ? (total == 1 ? " matches" : " match") : "")
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.list, use: index)
        routes.on(Site.Devices.bulk, use: bulk)
    }

    @Sendable func index(request: Request, context: SignedInContext) async throws -> Response {
        let filter = try DeviceListFilter(request.uri.formParameters)
        let now = self.now()
        let list = try await catalogReader.deviceList(filter, limit: Self.pageSize, now: now)
        let page = list.devices.prefix(Self.pageSize)
        let names = Dictionary(uniqueKeysWithValues: list.groups.map { ($0.id, $0.name) })
        let canAct = context.user.role.includes(.helpdesk)
        // A fenced device whose newest lines put it outside its areas is tagged: which of the
        // sales iPhones is the one locked out shows on the list.
        let fenced = page.filter { $0.device.groupID.flatMap { list.policies[$0]?.geofence } != nil }.map(\.device.id)
        let places = try await catalogReader.newestPlaces(of: fenced)
        let rowsHTML = page.map { listed in
            let fence = listed.device.groupID.flatMap { list.policies[$0]?.geofence }
            let place = places[listed.device.id].flatMap { point in fence.flatMap { GeofenceExplanation(point, against: $0) } }
            return DeviceListRowHTML.row(listed, groupNames: names, policies: list.policies, now: now, selectable: canAct, place: place)
        }.joined()
        let next = list.devices.count > Self.pageSize ? page.last.map { Site.Devices.list.link() + "?" + filter.query(after: $0.device.id) } : nil
        let view = View(
            rowsHTML: rowsHTML, isEmpty: page.isEmpty, total: Counted.grouped(list.total), totalText: Self.countText(list.total, filtered: filter.isFiltered), isFiltered: filter.isFiltered,
            search: filter.search,
            onlyMatch: list.total == 1 && !filter.search.isEmpty
                ? page.first.map { OnlyMatch(name: $0.device.name, path: Site.Devices.show.link($0.device.id)) } : nil,
            groups: SelectOption.groups(list.groups, first: SelectOption(value: "", label: "Every group", selected: filter.group == nil), selected: filter.group),
            models: [SelectOption(value: "", label: "Every model", selected: filter.model == nil)]
                + DeviceModel.allCases.map { SelectOption(value: $0.rawValue, label: $0.rawValue, selected: $0 == filter.model) },
            osVersions: [SelectOption(value: "", label: "Every version", selected: filter.osVersion == nil)]
                + Self.versionChoices(list.osVersions).map { SelectOption(value: $0, label: $0.contains(".") ? $0 : "\($0).x", selected: $0 == filter.osVersion) },
            supervised: [SelectOption(value: "", label: "Either", selected: filter.supervised == nil),
                         SelectOption(value: "yes", label: "Supervised", selected: filter.supervised == true),
                         SelectOption(value: "no", label: "Not supervised", selected: filter.supervised == false)],
            locks: [SelectOption(value: "", label: "Any", selected: filter.lock == nil)]
                + DeviceListFilter.LockState.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == filter.lock) },
            kinds: [SelectOption(value: "", label: "Any", selected: filter.kind == nil)]
                + DeviceListFilter.Kind.allCases.map { SelectOption(value: $0.rawValue, label: $0.label, selected: $0 == filter.kind) },
            conflictOnly: filter.conflictOnly, waitingOnly: filter.waitingOnly, stale: filter.notCheckedInDays.map(String.init) ?? "",
            foldedFiltersOn: filter.foldedFilterCount == 0 ? nil : String(filter.foldedFilterCount),
            sortName: sortLink("Name", .name, filter), sortModel: sortLink("Model", .model, filter), sortCheckIn: sortLink("Last check-in", .checkIn, filter),
            nextPage: next, clearPath: Site.Devices.list.link(), backPath: Site.Devices.list.link() + Self.question(filter.query(after: filter.after)),
            canEdit: context.user.role.includes(.admin), canAct: canAct,
            moveGroups: SelectOption.groups(list.groups, first: SelectOption(value: "none", label: "No group", selected: false), selected: nil),
            adminCommands: Self.bulkAdminCommands.map { SelectOption(value: $0.rawValue, label: $0.displayName, selected: false) },
            captureChoices: [SelectOption(value: "", label: "Send what is kept now", selected: true)]
                + Self.captureMinutes.map { SelectOption(value: String($0), label: $0 < 60 ? "Capture \($0) minutes" : "Capture \($0 / 60) hour\($0 == 60 ? "" : "s")", selected: false) },
            filterQuery: filter.query(after: nil), filterCount: list.total)
        return try renderer.page("devices/index", title: "Devices", model: view, request: request, context: context)
    }

    /// Each major version ("17") and every exact one, in version order.
    static func versionChoices(_ versions: [String]) -> [String] {
        var choices: [String] = []
        for version in versions {
            let major = String(version.prefix { $0 != "." })
            if !choices.contains(major) { choices.append(major) }
            if version != major { choices.append(version) }
        }
        return choices
    }

    private func sortLink(_ label: String, _ sort: DeviceListFilter.Sort, _ filter: DeviceListFilter) -> SortLink {
        let current = filter.sort == sort
        // A click on the sorted column turns it round; on another column it sorts that one
        // (newest check-in first, the rest A to Z).
        let descending = current ? !filter.descending : sort == .checkIn
        return SortLink(label: label, path: Site.Devices.list.link() + Self.question(filter.query(after: nil, sort: sort, descending: descending)),
                        direction: current ? (filter.descending ? "descending" : "ascending") : nil)
    }

    private static func question(_ query: String) -> String { query.isEmpty ? "" : "?" + query }

    // MARK: bulk

    @Sendable func bulk(request: Request, context: SignedInContext) async throws -> Response {
        let form = context.form
        let back = form["back"].isEmpty ? Site.Devices.list.link() : form["back"]
        guard LocalPath.isLocal(back) else { throw HTTPError(.badRequest, message: "The page to return to must be on this site.") }
        let values = form.all("device")
        let ids = values.compactMap { RecordID<DeviceRecord>($0) }
        guard ids.count == values.count else { throw HTTPError(.badRequest, message: "Devices are chosen by their ids.") }
        // Every other value comes from the page's lists; one that does not was not chosen there.
        var captureMinutes: Int?
        if !form["captureMinutes"].isEmpty {
            guard let minutes = Int(form["captureMinutes"]), Self.captureMinutes.contains(minutes) else {
                throw HTTPError(.badRequest, message: "Choose how long to capture from the list.")
            }
            captureMinutes = minutes
        }
        // The filter the list applied and the count it showed travel with the form for "every
        // device the filter finds"; the page writes both, so anything else was not sent from it.
        let listed = try Self.listedFilter(form)
        func refuse(_ message: String) -> Response {
            .seeOther(back, flash: .error(message), cookies: cookies, request: request)
        }
        let chosen: [RecordID<DeviceRecord>]
        if form["scope"] == "filter" {
            // Every device a filter finds is many devices at once: an admin's action, whatever it is.
            try SecuredRoutes.authorize(.admin, request: request, context: context)
            guard let listed else { throw HTTPError(.badRequest, message: "The list's filter and count are missing: filter the list again.") }
            switch try await filtered(listed.filter, expected: listed.count) {
            case .success(let found): chosen = found
            case .failure(let refusal): return refuse(refusal.message)
            }
        } else {
            guard !ids.isEmpty else { return refuse("Tick the devices first.") }
            guard ids.count <= Self.maximumBulk else {
                return refuse("Choose at most \(Self.maximumBulk) devices at once, or choose every device the filter finds.")
            }
            chosen = Array(Set(ids))
        }
        let user = context.user
        let count = Self.devices(chosen.count)
        do {
            switch form["action"] {
            case "move":
                try SecuredRoutes.authorize(.admin, request: request, context: context)
                let target = form["groupID"]
                let group = target == "none" ? nil : RecordID<DeviceGroupRecord>(target)
                guard target == "none" || group != nil else { throw HTTPError(.badRequest, message: "Choose the group from the list.") }
                try await catalog.moveDevices(chosen, to: group, by: Actor(user))
                return .seeOther(back, flash: .notice("Moved \(count)."), cookies: cookies, request: request)
            case "requestLogs", "fetchFeedback", "command":
                var command: DeviceCommand
                switch form["action"] {
                case "requestLogs":
                    command = DeviceCommand(requestType: .requestLogs)
                    command.captureMinutes = captureMinutes
                case "fetchFeedback": command = DeviceCommand(requestType: .managedApplicationFeedback)
                default:
                    guard let type = DeviceCommand.RequestType(rawValue: form["requestType"]), Self.bulkAdminCommands.contains(type) else {
                        throw HTTPError(.badRequest, message: "Choose a command from the list.")
                    }
                    command = DeviceCommand(requestType: type)
                }
                // A command sent to many devices at once is an admin's, whatever it is for one device.
                try SecuredRoutes.authorize(form["action"] == "command" ? .admin : command.requestType.role, request: request, context: context)
                // A real device that unenrolled takes no command until it enrolls again: queuing
                // one would only see it expire.
                let unenrolled = try await catalogReader.unenrolledRealDevices()
                let reachable = chosen.filter { !unenrolled.contains($0) }
                let leftOut = chosen.count - reachable.count
                let note = leftOut == 0 ? "" : " \(Self.devices(leftOut)) left out: \(leftOut == 1 ? "it has" : "they have") unenrolled from MDM."
                guard !reachable.isEmpty else { return refuse("Nothing queued: \(leftOut == 1 ? "the device has" : "the devices have") unenrolled from MDM.") }
                try await commands.enqueue(command, for: reachable, by: user)
                return .seeOther(back, flash: .notice("\(command.summary): queued for \(Self.devices(reachable.count)).\(note)"), cookies: cookies, request: request)
            default:
                throw HTTPError(.badRequest, message: "Choose what to do with the devices.")
            }
        } catch let refusal as CatalogRefusal {
            return refuse(refusal.messages.values.sorted().first ?? "The devices could not be changed.")
        }
    }

    static func devices(_ count: Int) -> String { "\(count.formatted()) device\(count == 1 ? "" : "s")" }

    struct BulkRefusal: Error {
        let message: String
    }

    /// The filter and count the page put in the form, when it did (an admin's list).
    private static func listedFilter(_ form: FormFields) throws -> (filter: DeviceListFilter, count: Int)? {
        let query = form["filter"], count = form["expected"]
        if form.all("filter").isEmpty && form.all("expected").isEmpty { return nil }
        let wrong = HTTPError(.badRequest, message: "The list's filter or count was not one the page writes: filter the list again.")
        guard let expected = Int(count), expected >= 1, PlainText.problem(query) == nil else { throw wrong }
        let parameters = URI("?" + query).formParameters
        guard parameters.allSatisfy({ DeviceListFilter.parameterNames.contains(String($0.key)) }),
              let filter = try? DeviceListFilter(parameters, strict: true), filter.after == nil else { throw wrong }
        return (filter, expected)
    }

    /// Every device the list's filter (as the page showed it) finds now — never more than the
    /// page said: a filter that finds more since would act on devices the admin did not see.
    private func filtered(_ filter: DeviceListFilter, expected: Int) async throws -> Result<[RecordID<DeviceRecord>], BulkRefusal> {
        let found = try await catalogReader.deviceIDs(filter, limit: Self.maximumFilterBulk + 1, now: now())
        guard !found.isEmpty else { return .failure(BulkRefusal(message: "The filter finds no devices now.")) }
        guard found.count <= Self.maximumFilterBulk else {
            return .failure(BulkRefusal(message: "The filter finds more than \(Self.maximumFilterBulk.formatted()) devices: narrow it, or act on a group's profiles."))
        }
        guard found.count <= expected else {
            return .failure(BulkRefusal(message: "The filter finds \(Self.devices(found.count)) now, more than the \(expected.formatted()) the list showed: look at the list again."))
        }
        return .success(found)
    }
}
