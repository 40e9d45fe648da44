import Domain
import HTTPTypes
import Storage

extension Site {
    /// Simulated devices: enrolling one, its simulator page, the actions it takes and the
    /// stream that keeps the page current.
    enum Simulator {
        static let new = SiteRoute<NoValues>(.get, "/simulator/new", role: .admin)
        static let enroll = SiteRoute<NoValues>(.post, "/simulator", role: .admin)
        static let show = SiteRoute<RecordID<DeviceRecord>>(.get, "/simulator/{id}", role: .viewer)
        static let act = SiteRoute<RecordID<DeviceRecord>>(.post, "/simulator/{id}/actions", role: .helpdesk)
        /// Server-Sent Events, and the revision to poll where a stream cannot be kept open.
        static let events = SiteRoute<RecordID<DeviceRecord>>(.get, "/simulator/{id}/events", role: .viewer)
        static let revision = SiteRoute<RecordID<DeviceRecord>>(.get, "/simulator/{id}/revision", role: .viewer)

        /// The simulator with iOS's confirmation asked before an app locks the device.
        static func show(_ device: RecordID<DeviceRecord>, prompt mode: LockRequestMode) -> String {
            show.link(device) + "?prompt=" + mode.rawValue
        }
    }
}
