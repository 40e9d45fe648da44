import Domain
import Foundation

/// A log line as a table row, written as escaped HTML: a page holds fifty of them, and the
/// template engine's reflection was most of a page's time (see `Benchmarks/README.md`).
enum LogRowHTML {
    /// Messages longer than this, or on several lines, show their first line and open to the rest.
    static let shortMessage = 240

    /// `selectable` adds the tick box of the viewer's download and delete form; `showDevice`
    /// the device's column, which a device's own page leaves out.
    /// `geofence`, the areas of the line's device: a line that says where the device was
    /// gets what the fence makes of that place beside it.
    static func row(_ row: LogReader.Row, appName: String?, selectable: Bool = true, showDevice: Bool = true, geofence: Geofence? = nil) -> String {
        let log = row.line
        let device = log.deviceID.map { "<a class=\"clip\" href=\"\(Site.Devices.show.link($0))\">\(HTMLText.escape(log.deviceName))</a>" }
            ?? "\(HTMLText.escape(log.deviceName)) <span class=\"muted\">(removed)</span>"
        // One line a row: the app by its catalog name (its bundle ID in the title), or by its
        // bundle ID when the catalog does not know it.
        let version = log.appVersion.isEmpty ? "" : " <span class=\"muted\">\(HTMLText.escape(log.appVersion))</span>"
        let bundleID = HTMLText.escape(log.app)
        let app = (appName.map { "<span class=\"clip\" title=\"\(bundleID)\">\(HTMLText.escape($0))</span>" }
            ?? "<code class=\"clip\" title=\"\(bundleID)\">\(bundleID)</code>") + version
        let iso = DisplayTime.iso(log.loggedAt)
        let crash = log.kind == .crash ? " <span class=\"tag\">crash</span>" : ""
        let choose = !selectable ? "" : "<td><input type=\"checkbox\" name=\"line\" value=\"\(log.id)\" form=\"log-selection\" aria-label=\"Choose the line logged \(iso)\"></td>"
        return "<tr class=\"log-\(log.level.rawValue)\">\(choose)<td><time datetime=\"\(iso)\" title=\"\(iso)\">\(HTMLText.escape(iso))</time></td>"
            + (showDevice ? "<td>\(device)</td>" : "") + "<td>\(app)</td>"
            + "<td><span class=\"level level-\(log.level.rawValue)\">\(log.level.displayName)</span>\(crash)</td>"
            + "<td class=\"log-message\">\(message(row.highlighted ?? log.message, summary: log.signature))\(placeNote(log.message, geofence))</td></tr>\n"
    }

    /// The message escaped, matched words in `<mark>`; a long or multi-line one (a crash
    /// report) as one line — its crash signature, or else its first line — that opens to the
    /// whole text.
    static func message(_ text: String, summary signature: String? = nil) -> String {
        let firstLine = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? text
        guard firstLine.count < text.count || text.count > shortMessage else { return marked(text) }
        let line = signature ?? firstLine
        let summary = line.count > shortMessage ? String(line.prefix(shortMessage)) + "…" : line
        return "<details><summary>\(marked(summary))</summary><pre class=\"log-full\">\(marked(text))</pre></details>"
    }

    /// Escapes, then turns FTS5's markers (U+0001, U+0002) into `<mark>`, closing a mark a cut
    /// summary left open.
    static func marked(_ text: String) -> String {
        var html = HTMLText.escape(text)
        let opened = html.filter { $0 == "\u{1}" }.count, closed = html.filter { $0 == "\u{2}" }.count
        html = html.replacingOccurrences(of: "\u{1}", with: "<mark>").replacingOccurrences(of: "\u{2}", with: "</mark>")
        return html + String(repeating: "</mark>", count: max(0, opened - closed))
    }

    /// "Geofence: outside, 134 m beyond North depot's edge" after a line that names a place.
    static func placeNote(_ message: String, _ geofence: Geofence?) -> String {
        guard let geofence, let point = GeoPoint.firstMentioned(in: message),
              let explained = GeofenceExplanation(point, against: geofence) else { return "" }
        return " <span class=\"geo-note \(explained.isInside ? "inside" : "outside")\">Geofence: \(HTMLText.escape(explained.short))</span>"
    }
}
