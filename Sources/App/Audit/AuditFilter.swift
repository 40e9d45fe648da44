import Domain
import Foundation
import Hummingbird
import Storage

/// What the audit log shows: whose changes, to which kind of object, naming what, between
/// which days (UTC, both included); and the page (entries older than `before`). Read
/// leniently from the address: a value the page does not offer is no filter.
struct AuditFilter: Equatable, Sendable {
    var person: String?
    var objectType: ObjectType?
    var object = ""
    var from: Date?
    var through: Date?
    var before: RecordID<AuditEvent>?

    /// The kinds of object entries are about: the first part of their action code.
    enum ObjectType: String, CaseIterable, Sendable {
        case user, app, group, device, profile, note, logs, token, signing, mdm, settings

        var label: String {
            switch self {
            case .user: "Users and sign-ins"
            case .app: "Apps"
            case .group: "Groups"
            case .device: "Devices and commands"
            case .profile: "Profiles and assignments"
            case .note: "Device notes"
            case .logs: "Log deletions"
            case .token: "API tokens"
            case .signing: "Signing certificate"
            case .mdm: "MDM: enrollment links and certificates"
            case .settings: "Console settings"
            }
        }
    }

    static let maximumObject = 100

    var isFiltered: Bool { person != nil || objectType != nil || !object.isEmpty || from != nil || through != nil }

    /// Why the days cannot match anything: the range ends before it starts. Said beside the
    /// date fields rather than as "no entries match", which would blame the log.
    var rangeProblem: String? {
        guard let from, let through, from > through else { return nil }
        return "Through (\(Self.dayText(through))) is before From (\(Self.dayText(from))): choose a Through day on or after the From day."
    }

    init() {}

    init(_ parameters: Parameters) {
        func value(_ name: String) -> String? {
            parameters[Substring(name)].map { String($0).trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        person = value("person").map { String($0.prefix(254)) }
        objectType = value("type").flatMap(ObjectType.init(rawValue:))
        object = String((value("object") ?? "").unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
            .prefix(Self.maximumObject).map(Character.init))
        from = value("from").flatMap(Self.day)
        through = value("through").flatMap(Self.day)
        before = value("before").flatMap { RecordID($0) }
    }

    /// "2026-11-23" as the start of that day in UTC.
    static func day(_ text: String) -> Date? {
        ISOTimestamp.day(text)
    }

    static func dayText(_ date: Date) -> String { String(DisplayTime.iso(date).prefix(10)) }

    /// The filter's conditions on `audit_events`, every value bound.
    func query() -> Query<AuditEvent> {
        var query = AuditEvent.query()
        if let person { query = query.filter("actorEmail", .equal, person) }
        if let objectType {
            // A range on the action code ("device." up to "device/"), which its index answers.
            query = query.filter("action >= \(objectType.rawValue + ".") AND action < \(objectType.rawValue + "/")")
        }
        if !object.isEmpty {
            query = query.filter("subject LIKE \("%" + LikePattern.escaped(object) + "%") ESCAPE '\\'")
        }
        if let from { query = query.filter("occurredAt", .greaterOrEqual, from) }
        if let through { query = query.filter("occurredAt", .less, through.addingTimeInterval(86_400)) }
        return query
    }

    func queryItems(before: RecordID<AuditEvent>?) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let person { items.append(.init(name: "person", value: person)) }
        if let objectType { items.append(.init(name: "type", value: objectType.rawValue)) }
        if !object.isEmpty { items.append(.init(name: "object", value: object)) }
        if let from { items.append(.init(name: "from", value: Self.dayText(from))) }
        if let through { items.append(.init(name: "through", value: Self.dayText(through))) }
        if let before { items.append(.init(name: "before", value: before.description)) }
        return items
    }

    func query(before: RecordID<AuditEvent>?) -> String {
        var components = URLComponents()
        components.queryItems = queryItems(before: before)
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }
}
