import Domain
import HTTPTypes
import Storage

extension Site.Devices {
    // Helpdesk's parts of the device page.
    static let addNote = SiteRoute<RecordID<DeviceRecord>>(.post, "/devices/{id}/notes", role: .helpdesk)
    static let editNote = SiteRoute<PathPair<RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>>>(.get, "/devices/{id}/notes/{note}/edit", role: .helpdesk)
    static let updateNote = SiteRoute<PathPair<RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>>>(.post, "/devices/{id}/notes/{note}", role: .helpdesk)
    static let removeNote = SiteRoute<PathPair<RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>>>(.post, "/devices/{id}/notes/{note}/delete", role: .helpdesk)
    /// Managed-app feedback on the device, every app's or one app's (`?app=`).
    static let feedback = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}/feedback", role: .helpdesk)
    /// What changed on the device page since it loaded: new log lines and command states.
    static let live = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}/live", role: .helpdesk)
    /// Server-Sent Events telling the page the policy the device gets has changed.
    static let events = SiteRoute<RecordID<DeviceRecord>>(.get, "/devices/{id}/events", role: .helpdesk)

    /// An app's feedback history on a device.
    static func feedback(on device: RecordID<DeviceRecord>, app: String) -> String {
        feedback.link(device) + "?app=" + QueryValue.encoded(app)
    }
}
