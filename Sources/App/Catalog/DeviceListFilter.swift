import Domain
import Foundation
import Hummingbird
import Storage

/// What the device list shows: one search box (part of a name, owner, serial number or UDID:
/// `DeviceSearch`), filters for group (with its subgroups), model, iOS version, supervision, lock state,
/// a Single App Mode conflict, commands waiting and days without a check-in; a sort; and the page (devices after
/// `after` in that order). All of it lives in the address, so a filtered list can be shared.
struct DeviceListFilter: Equatable, Sendable {
    var search = ""
    var group: RecordID<DeviceGroupRecord>?
    var model: DeviceModel?
    /// "17" matches every 17.x; "17.4" matches 17.4 and 17.4.x.
    var osVersion: String?
    var supervised: Bool?
    var lock: LockState?
    var conflictOnly = false
    /// Only devices with commands they have not carried out (queued, or answered Not Now).
    var waitingOnly = false
    var notCheckedInDays: Int?
    /// Real devices (enrolled over MDM, or once) or the others.
    var kind: Kind?
    var sort = Sort.name
    var descending = false
    var after: RecordID<DeviceRecord>?

    enum LockState: String, CaseIterable, Sendable {
        case unlocked, singleAppMode, autonomous, assessment, guidedAccess

        var label: String {
            switch self {
            case .unlocked: "Not locked"
            case .singleAppMode: "Single App Mode"
            case .autonomous: "Autonomous Single App Mode"
            case .assessment: "Assessment mode (AAC)"
            case .guidedAccess: "Guided Access"
            }
        }
    }

    /// What a device is to the console: a real device in one of its MDM states, or one the
    /// simulator plays (or added by hand).
    enum Kind: String, CaseIterable, Sendable {
        case real, enrolled, unenrolled, pushDead, outOfStep, simulated

        var label: String {
            switch self {
            case .real: "Real (MDM)"
            case .enrolled: "Real, enrolled"
            case .unenrolled: "Real, unenrolled"
            case .pushDead: "Real, push token dead"
            case .outOfStep: "Real, out of step with its policy"
            case .simulated: "Simulated or added by hand"
            }
        }
    }

    enum Sort: String, CaseIterable, Sendable {
        case name, model, checkIn = "checkin"
    }

    static let maximumSearch = 100
    /// Every parameter the list reads.
    static let parameterNames: Set<String> = ["q", "group", "model", "os", "supervised", "lock", "conflict", "waiting", "stale", "kind", "sort", "after"]

    var isFiltered: Bool {
        !search.isEmpty || group != nil || model != nil || osVersion != nil || supervised != nil || lock != nil || conflictOnly
            || waitingOnly || notCheckedInDays != nil || kind != nil
    }

    /// The filters the list's page folds away (all but the search, group and lock) that are on.
    var foldedFilterCount: Int {
        [model != nil, osVersion != nil, supervised != nil, kind != nil, notCheckedInDays != nil, conflictOnly, waitingOnly].filter { $0 }.count
    }

    struct Invalid: Error {
        let parameter: String
        let message: String
    }

    /// Reads the parameters: the page leniently (a value the list does not offer is no
    /// filter), the API strictly (`strict` throws naming the first wrong parameter).
    init(_ parameters: Parameters, strict: Bool = false) throws(Invalid) {
        func value(_ name: String) -> String? {
            parameters[Substring(name)].map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        func check(_ ok: Bool, _ name: String, _ message: String) throws(Invalid) {
            if !ok && strict { throw Invalid(parameter: name, message: message) }
        }
        // The page's form sends every box, empty ones too; a script sending `os=` means something it did not say.
        if strict, let empty = Self.parameterNames.subtracting(["q"]).sorted()
            .first(where: { parameters[Substring($0)] == "" }) {
            throw Invalid(parameter: empty, message: "\(empty) is empty; leave it out to not filter by it.")
        }
        let typed = value("q") ?? ""
        search = String(typed.unicodeScalars.filter { $0.value >= 0x20 && ![0x7F, 0xFFFE, 0xFFFF].contains($0.value) }
            .prefix(Self.maximumSearch).map(Character.init))
        try check(search == typed, "q", "q is at most \(Self.maximumSearch) characters, without control characters.")
        if let text = value("group") {
            group = RecordID(text)
            try check(group != nil, "group", "group must be a group id.")
        }
        if let text = value("model") {
            model = DeviceModel(rawValue: text)
            try check(model != nil, "model", "model must be one of \(DeviceModel.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let text = value("os") {
            osVersion = text.count <= 12 && text.allSatisfy({ $0.isASCIIDigit || $0 == "." }) ? text : nil
            try check(osVersion != nil, "os", "os must be a version such as 17 or 17.4.")
        }
        if let text = value("supervised") {
            supervised = ["yes": true, "no": false][text]
            try check(supervised != nil, "supervised", "supervised must be yes or no.")
        }
        if let text = value("lock") {
            lock = LockState(rawValue: text)
            try check(lock != nil, "lock", "lock must be one of \(LockState.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let text = value("conflict") {
            conflictOnly = text == "yes"
            try check(conflictOnly, "conflict", "conflict must be yes, or left out.")
        }
        if let text = value("waiting") {
            waitingOnly = text == "yes"
            try check(waitingOnly, "waiting", "waiting must be yes, or left out.")
        }
        if let text = value("stale") {
            notCheckedInDays = Int(text).flatMap { (1...3650).contains($0) ? $0 : nil }
            try check(notCheckedInDays != nil, "stale", "stale must be a number of days from 1 to 3650.")
        }
        if let text = value("kind") {
            kind = Kind(rawValue: text)
            try check(kind != nil, "kind", "kind must be one of \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let text = value("sort") {
            descending = text.hasPrefix("-")
            let named = Sort(rawValue: String(text.drop { $0 == "-" }))
            try check(named != nil, "sort", "sort must be name, model or checkin, with - before it for the other way round.")
            sort = named ?? .name
        }
        if let text = value("after") {
            after = RecordID(text)
            try check(after != nil, "after", "after must be a device id.")
        }
    }

    init() {}

    /// The filter as query items, with `after` and the sort replaced: links to the next page
    /// and to the list sorted by a column.
    func queryItems(after: RecordID<DeviceRecord>?, sort: Sort? = nil, descending: Bool? = nil) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if !search.isEmpty { items.append(.init(name: "q", value: search)) }
        if let group { items.append(.init(name: "group", value: group.description)) }
        if let model { items.append(.init(name: "model", value: model.rawValue)) }
        if let osVersion { items.append(.init(name: "os", value: osVersion)) }
        if let supervised { items.append(.init(name: "supervised", value: supervised ? "yes" : "no")) }
        if let lock { items.append(.init(name: "lock", value: lock.rawValue)) }
        if conflictOnly { items.append(.init(name: "conflict", value: "yes")) }
        if waitingOnly { items.append(.init(name: "waiting", value: "yes")) }
        if let notCheckedInDays { items.append(.init(name: "stale", value: String(notCheckedInDays))) }
        if let kind { items.append(.init(name: "kind", value: kind.rawValue)) }
        let (sort, descending) = (sort ?? self.sort, descending ?? self.descending)
        if sort != .name || descending { items.append(.init(name: "sort", value: (descending ? "-" : "") + sort.rawValue)) }
        if let after { items.append(.init(name: "after", value: after.description)) }
        return items
    }

    func query(after: RecordID<DeviceRecord>?, sort: Sort? = nil, descending: Bool? = nil) -> String {
        var components = URLComponents()
        components.queryItems = queryItems(after: after, sort: sort, descending: descending)
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}
