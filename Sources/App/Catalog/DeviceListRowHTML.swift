import Domain
import Foundation
import Storage

/// A device as a row of the device list, written as escaped HTML (fifty rows a page, each
/// with a dozen cells: the template engine's reflection would be most of the page's time).
enum DeviceListRowHTML {
    static func row(_ listed: CatalogReader.ListedDevice, groupNames: [RecordID<DeviceGroupRecord>: String],
                    policies: [RecordID<DeviceGroupRecord>: CatalogReader.GroupPolicySummary], now: Date, selectable: Bool,
                    place: GeofenceExplanation? = nil) -> String {
        let device = listed.device
        let name = HTMLText.escape(device.name)
        let choose = selectable
            ? "<td><input type=\"checkbox\" name=\"device\" value=\"\(device.id)\" form=\"device-selection\" aria-label=\"Choose \(name)\"></td>" : ""
        let policy = device.groupID.flatMap { policies[$0] }
        let samCell: String
        if let conflict = policy?.conflictApps, !conflict.isEmpty {
            samCell = "<span class=\"tag tag-danger\">Conflict</span> " + clipped(conflict.joined(separator: ", "), code: true)
        } else if let app = policy?.singleAppModeApp {
            samCell = clipped(app, code: true)
        } else {
            samCell = "<span class=\"muted\">—</span>"
        }
        let lockCell: String
        if let mode = listed.lockMode.flatMap(DeviceListFilter.LockState.init(rawValue:)) {
            lockCell = clipped(mode.label + (listed.lockApp.map { " · " + $0 } ?? ""))
        } else {
            lockCell = listed.simulated ? "Not locked" : "<span class=\"muted\" title=\"Only simulated devices report their lock\">Not reported</span>"
        }
        let checkIn = device.lastCheckInAt.map {
            "<time datetime=\"\(DisplayTime.iso($0))\" title=\"\(DisplayTime.iso($0))\">\(DisplayTime.relative($0, now: now))</time>"
        } ?? "<span class=\"muted\">never</span>"
        let supervised = device.isSupervised ? "Yes" : "<span class=\"muted\">No</span>"
        let group = clipped(device.groupID.flatMap { groupNames[$0] } ?? "No group")
        // Only what needs a look is tagged: a compliant device reads as normal.
        let compliance = switch listed.compliance {
        case .blocked?: " <span class=\"tag tag-danger\">Blocked</span>"
        case .wiped?: " <span class=\"tag tag-danger\">Wiped</span>"
        case .compliant?, nil: ""
        }
        // Where its newest lines put it, when that is outside its geofence.
        let outside = place.map { $0.isInside ? ""
            : " <span class=\"tag tag-danger\" title=\"Its newest line that names a place: \(HTMLText.escape($0.sentence))\">Outside geofence</span>" } ?? ""
        // One line a row: long values are clipped here and whole on the device's page (and
        // in the cell's title); the columns a narrow window leaves out carry their class.
        var html = "<tr>\(choose)<th scope=\"row\"><a href=\"\(Site.Devices.show.link(device.id))\">\(name)</a>\(compliance)\(outside)</th>"
        html += "<td class=\"optional-wide\"><code class=\"small\">\(HTMLText.escape(device.serialNumber))</code></td>"
        html += "<td class=\"optional\">\(HTMLText.escape(device.model.rawValue))</td><td class=\"optional\">\(HTMLText.escape(device.osVersion))</td>"
        html += "<td class=\"optional-laptop\">\(supervised)</td><td class=\"optional\">\(group)</td><td class=\"optional\">\(clipped(device.owner))</td>"
        html += "<td>\(checkIn)</td><td>\(lockCell)</td><td>\(samCell)</td></tr>\n"
        return html
    }

    /// A value that may be longer than its column: cut with an ellipsis, whole in its title.
    private static func clipped(_ text: String, code: Bool = false) -> String {
        let escaped = HTMLText.escape(text)
        return code ? "<code class=\"clip\" title=\"\(escaped)\">\(escaped)</code>" : "<span class=\"clip\" title=\"\(escaped)\">\(escaped)</span>"
    }
}
