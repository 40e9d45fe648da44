import Domain
import Foundation
import Hummingbird
import Storage

/// What the log viewer and `GET /api/v1/logs` select: device, app, level (at or above), type,
/// a time range, a full-text search, and the page (lines older than `before`). The page reads
/// the filter leniently (a wrong value is ignored, a bad search gets a message); the API
/// strictly (400 naming the parameter).
package struct LogFilter: Equatable, Sendable {
    var device: RecordID<DeviceRecord>?
    var app: String?
    /// The least severe level shown; more severe ones are shown too.
    var level: LogLevel?
    var kind: SimulatedLog.Kind?
    /// Crash logs of one crash group (`CrashSignature`).
    var signature: String?
    var from: Date?
    var to: Date?
    /// The search as typed, and as FTS5 will read it; or why it cannot be read (the page
    /// shows that beside the box and no lines).
    var searchText = ""
    var search: LogSearch?
    var searchProblem: String?
    var before: RecordID<DeviceLogRecord>?

    var isFiltered: Bool { device != nil || app != nil || level != nil || kind != nil || signature != nil || from != nil || to != nil || search != nil }
    /// The filters the viewer folds away (type and time range) that are on.
    var foldedFilterCount: Int { [kind != nil, from != nil, to != nil].filter { $0 }.count }

    struct Invalid: Error {
        let parameter: String
        let message: String
    }

    /// Reads the parameters; `strict` throws on the first wrong one instead of ignoring it, and
    /// on a search that cannot be read, which otherwise becomes `searchProblem`.
    init(_ parameters: Parameters, strict: Bool) throws(Invalid) {
        func value(_ name: String) -> String? {
            parameters[Substring(name)].map(String.init).flatMap { $0.isEmpty ? nil : $0 }
        }
        // The page's form sends every box, empty ones too; a script sending `before=` means something it did not say.
        if strict, let empty = ["device", "level", "type", "signature", "from", "to", "before", "tz"].first(where: { parameters[Substring($0)] == "" }) {
            throw Invalid(parameter: empty, message: "\(empty) is empty; leave it out to not filter by it.")
        }
        func check(_ ok: Bool, _ name: String, _ message: String) throws(Invalid) {
            if !ok && strict { throw Invalid(parameter: name, message: message) }
        }
        if let text = value("device") {
            device = RecordID(text)
            try check(device != nil, "device", "device must be a device id.")
        }
        // Any text: an app that never sent a line (or could not be one) simply matches nothing.
        if let text = value("app") { app = text.trimmingCharacters(in: .whitespaces) }
        if let text = value("level") {
            level = LogLevel(rawValue: text)
            try check(level != nil, "level", "level must be one of \(LogLevel.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let text = value("type") {
            kind = SimulatedLog.Kind(rawValue: text)
            try check(kind != nil, "type", "type must be application or crash.")
        }
        if let text = value("signature") { signature = text }
        // The page's time boxes send local time without a zone, and the browser's offset in tz.
        let offsetMinutes = value("tz").flatMap(Int.init).flatMap { abs($0) <= 14 * 60 ? $0 : nil } ?? 0
        for name in ["from", "to"] {
            guard let text = value(name) else { continue }
            let time = Self.time(text, offsetMinutes: offsetMinutes)
            try check(time != nil, name, "\(name) must be an ISO 8601 time such as 2026-11-23T09:30:00Z, \(ISOTimestamp.rangeDescription).")
            if name == "from" { from = time } else { to = time }
        }
        if let text = value("before") {
            before = RecordID(text)
            try check(before != nil, "before", "before must be a log line id.")
        }
        if let text = value("q") {
            searchText = text
            do { search = try LogSearch(text) } catch {
                if strict { throw Invalid(parameter: "q", message: error.message) }
                searchProblem = error.message
            }
        }
    }

    package init() {}

    /// ISO 8601 with a zone, or a browser's `datetime-local` value (`2026-11-23T09:30`) in the
    /// zone `offsetMinutes` behind UTC, as JavaScript's `getTimezoneOffset` says it.
    static func time(_ text: String, offsetMinutes: Int) -> Date? {
        ISOTimestamp.parse(text, zonelessOffsetSeconds: -offsetMinutes * 60)
    }

    /// The filter as name/value pairs, with `before` replaced: links to the next page, and the
    /// hidden fields of a form acting on every matching line.
    func queryItems(before: RecordID<DeviceLogRecord>?) -> [URLQueryItem] {
        var items: [URLQueryItem] = []
        if let device { items.append(.init(name: "device", value: device.description)) }
        if let app { items.append(.init(name: "app", value: app)) }
        if let level { items.append(.init(name: "level", value: level.rawValue)) }
        if let kind { items.append(.init(name: "type", value: kind.rawValue)) }
        if let signature { items.append(.init(name: "signature", value: signature)) }
        if let from { items.append(.init(name: "from", value: DisplayTime.iso(from))) }
        if let to { items.append(.init(name: "to", value: DisplayTime.iso(to))) }
        if search != nil { items.append(.init(name: "q", value: searchText)) }
        if let before { items.append(.init(name: "before", value: before.description)) }
        return items
    }

    /// The query string for this filter, with `before` replaced.
    func query(before: RecordID<DeviceLogRecord>?) -> String {
        var components = URLComponents()
        components.queryItems = queryItems(before: before)
        // `+` in a value would read as a space.
        return (components.percentEncodedQuery ?? "").replacingOccurrences(of: "+", with: "%2B")
    }

    /// The filter in words, for a confirmation and the audit log: "every line" when it is none.
    func summary(deviceName: String?, appName: String?) -> String {
        var parts: [String] = []
        if let app { parts.append("from \(appName ?? app)") }
        if let device { parts.append("from the device \(deviceName ?? "#\(device)")") }
        if let level { parts.append("at level \(level.displayName) or more severe") }
        if let kind { parts.append(kind == .crash ? "crash logs only" : "app logs only") }
        if let signature { parts.append("in the crash group “\(signature)”") }
        if let from { parts.append("logged from \(DisplayTime.iso(from))") }
        if let to { parts.append("logged before \(DisplayTime.iso(to))") }
        if search != nil { parts.append("matching “\(searchText)”") }
        return parts.isEmpty ? "every line" : "lines " + parts.joined(separator: ", ")
    }
}
