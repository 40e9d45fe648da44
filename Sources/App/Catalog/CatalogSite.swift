import Domain
import HTTPTypes
import Storage

extension Site {
    /// The app catalog: its list, with the add form, and each app's edit page.
    enum Apps {
        static let list = SiteRoute<NoValues>(.get, "/apps", role: .viewer)
        static let add = SiteRoute<NoValues>(.post, "/apps", role: .admin)
        static let edit = SiteRoute<RecordID<AppRecord>>(.get, "/apps/{id}/edit", role: .admin)
        static let update = SiteRoute<RecordID<AppRecord>>(.post, "/apps/{id}", role: .admin)
        static let uploadSpecfile = SiteRoute<RecordID<AppRecord>>(.post, "/apps/{id}/specfile", role: .admin)
        static let remove = SiteRoute<RecordID<AppRecord>>(.post, "/apps/{id}/delete", role: .admin)
    }

    /// Device groups: the tree, each group's page (its edit form posts there) and its edit page.
    enum Groups {
        static let list = SiteRoute<NoValues>(.get, "/groups", role: .viewer)
        static let add = SiteRoute<NoValues>(.post, "/groups", role: .admin)
        static let show = SiteRoute<RecordID<DeviceGroupRecord>>(.get, "/groups/{id}", role: .viewer)
        static let edit = SiteRoute<RecordID<DeviceGroupRecord>>(.get, "/groups/{id}/edit", role: .admin)
        static let update = SiteRoute<RecordID<DeviceGroupRecord>>(.post, "/groups/{id}", role: .admin)
        static let remove = SiteRoute<RecordID<DeviceGroupRecord>>(.post, "/groups/{id}/delete", role: .admin)
    }

    /// Devices: the list, a page per device, and the admins' forms. Helpdesk's parts of the
    /// device page (notes, feedback, live updates) are declared in `HelpdeskSite`, the
    /// simulator's in `SimulatorSite`.
    enum Devices {
        static let list = SiteRoute<NoValues>(.get, "/devices", role: .viewer)
        static let bulk = SiteRoute<NoValues>(.post, "/devices/bulk", role: .helpdesk)
        static let new = SiteRoute<NoValues>(.get, "/devices/new", role: .admin)
        static let add = SiteRoute<NoValues>(.post, "/devices", role: .admin)
        static let show = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}", role: .viewer)
        /// The device's effective SDK policy as a download.
        static let sdkProfile = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}/sdk-profile", role: .viewer)
        static let edit = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}/edit", role: .admin)
        static let update = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}", role: .admin)
        static let remove = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}/delete", role: .admin)

        /// The device list showing one group's devices.
        static func list(in group: RecordID<DeviceGroupRecord>) -> String { list.link(query: ["group": group.description]) }
    }
}
