import Domain
import HTTPTypes
import Storage

extension Site {
    /// The log viewer, its crash groups, and exporting or deleting what it shows.
    enum Logs {
        static let index = SiteRoute<NoValues>(.get, "/logs", role: .helpdesk)
        static let crashGroups = SiteRoute<NoValues>(.get, "/logs/crashes", role: .helpdesk)
        /// Every line matching the viewer's filters, as a download.
        static let exportMatching = SiteRoute<NoValues>(.get, "/logs/export", role: .helpdesk)
        /// The lines ticked in the viewer, as a download.
        static let exportChosen = SiteRoute<NoValues>(.post, "/logs/export", role: .helpdesk)
        /// What deleting the matching lines would remove, asked before it is done.
        static let confirmDeletion = SiteRoute<NoValues>(.get, "/logs/delete", role: .admin)
        static let delete = SiteRoute<NoValues>(.post, "/logs/delete", role: .admin)

        /// The log viewer showing one app's lines: its crash groups and storage first.
        static func index(app: String) -> String { index.link(query: ["app": app]) }
        /// The log viewer showing one device's lines.
        static func index(of device: RecordID<DeviceRecord>) -> String { index.link(query: ["device": device.description]) }

        /// Crash groups: every app's or one app's; every device's or one device's.
        static func crashGroups(app: String? = nil, device: RecordID<DeviceRecord>? = nil, hours: Int? = nil) -> String {
            crashGroups.link(query: ["app": app, "device": device?.description, "hours": hours?.description])
        }
    }
}
