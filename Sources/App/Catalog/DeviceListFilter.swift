import Domain
import Foundation
import Hummingbird
import Storage

/// What the device list shows: one search box (the start of a name, owner, serial number or
/// UDID), filters for group (with its subgroups), model, iOS version, supervision, lock state,
/// a Single App Mode conflict and days without a check-in; a sort; and the page (devices after
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
    var notCheckedInDays: Int?
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

    enum Sort: String, CaseIterable, Sendable {
        case name, model, checkIn = "checkin"
    }

    static let maximumSearch = 100

    var isFiltered: Bool {
        !search.isEmpty || group != nil || model != nil || osVersion != nil || supervised != nil || lock != nil || conflictOnly
            || notCheckedInDays != nil
    }

    /// Reads the parameters leniently: a value the list does not offer is no filter.
    init(_ parameters: Parameters) {
        func value(_ name: String) -> String? {
            parameters[Substring(name)].map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        search = String((value("q") ?? "").unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint && $0.value >= 0x20 }
            .prefix(Self.maximumSearch).map(Character.init))
        group = value("group").flatMap { RecordID($0) }
        model = value("model").flatMap { DeviceModel(rawValue: $0) }
        osVersion = value("os").flatMap { $0.count <= 12 && $0.allSatisfy { $0.isASCIIDigit || $0 == "." } ? $0 : nil }
        supervised = value("supervised").flatMap { ["yes": true, "no": false][$0] }
        lock = value("lock").flatMap { LockState(rawValue: $0) }
        conflictOnly = value("conflict") == "yes"
        notCheckedInDays = value("stale").flatMap { Int($0) }.flatMap { (1...3650).contains($0) ? $0 : nil }
        if let text = value("sort") {
            descending = text.hasPrefix("-")
            sort = Sort(rawValue: String(text.drop { $0 == "-" })) ?? .name
        }
        after = value("after").flatMap { RecordID($0) }
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
        if let notCheckedInDays { items.append(.init(name: "stale", value: String(notCheckedInDays))) }
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
