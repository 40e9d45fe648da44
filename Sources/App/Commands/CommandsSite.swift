import Domain
import HTTPTypes
import Storage

extension Site.Devices {
    /// A person's commands to a device, queued for its next check-in; a waiting one can be
    /// taken back, and an admin can empty the whole queue.
    static let queueCommand = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}/commands", role: .helpdesk)
    static let cancelCommand = SiteRoute<PathPair<RecordID<DeviceRecord>, String>>(.post, "/devices/{id}/commands/{uuid}/cancel", role: .helpdesk)
    static let clearCommands = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}/commands/clear", role: .admin)
}
