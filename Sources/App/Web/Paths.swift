import Domain
import Foundation
import Storage

/// The console's page addresses, typed by the records they show, for the redirects built in
/// Swift and the links and form actions view models hand to templates — so a moved page
/// changes here and in its route, never in a template. Route patterns stay beside their
/// handlers; `LinkCrawlTests` walks the demo console to check the two agree.
enum Paths {
    static let dashboard = "/dashboard"
    static let signIn = "/sign-in"
    static let signOut = "/sign-out"
    static let passwordChange = "/account/password"
    static let users = "/users"
    static let apps = "/apps"
    static let groups = "/groups"
    static let devices = "/devices"
    static let profiles = "/profiles"
    static let profileImport = "/profiles/import"
    static let tokens = "/tokens"
    static let signing = "/signing"
    static let logs = "/logs"
    static let audit = "/audit"
    static let auditCSV = "/audit.csv"
    static let settings = "/settings"
    static let help = "/help"
    static let tour = "/tour"
    /// A story's part of the tour.
    static func tour(story: String) -> String { tour + "#story-" + story }
    /// Where a tour step's done/not-done form posts.
    static func tourStep(_ id: String) -> String { tour + "/steps/" + id }
    /// A help page: "roles", "payloads/dlp".
    static func help(_ topic: String) -> String { help + "/" + topic }
    /// Where the enroll-a-simulated-device form posts.
    static let enrollment = "/simulator"

    /// The sign-in page, returning to `next` (a same-origin path) afterwards.
    static func signIn(next: String) -> String {
        signIn + "?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }

    // MARK: accounts and tokens

    static func userRole(_ id: RecordID<User>) -> String { "/users/\(id)/role" }
    static func userDelete(_ id: RecordID<User>) -> String { "/users/\(id)/delete" }
    static func tokenRevoke(_ id: RecordID<APITokenRecord>) -> String { "/tokens/\(id)/revoke" }

    // MARK: catalog

    /// Where the app's edit form posts.
    static func app(_ id: RecordID<AppRecord>) -> String { "/apps/\(id)" }
    static func appEdit(_ id: RecordID<AppRecord>) -> String { "/apps/\(id)/edit" }
    static func appSpecfile(_ id: RecordID<AppRecord>) -> String { "/apps/\(id)/specfile" }
    static func appDelete(_ id: RecordID<AppRecord>) -> String { "/apps/\(id)/delete" }

    /// The group's page; its edit form posts there too.
    static func group(_ id: RecordID<DeviceGroupRecord>) -> String { "/groups/\(id)" }
    static func groupEdit(_ id: RecordID<DeviceGroupRecord>) -> String { "/groups/\(id)/edit" }
    static func groupDelete(_ id: RecordID<DeviceGroupRecord>) -> String { "/groups/\(id)/delete" }

    static func device(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)" }
    static func deviceEdit(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/edit" }
    static func deviceDelete(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/delete" }
    static func deviceCommands(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/commands" }
    /// The device's effective SDK policy as a download.
    static func deviceSDKProfile(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/sdk-profile" }
    static func deviceNotes(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/notes" }
    static func deviceNoteEdit(_ id: RecordID<DeviceRecord>, _ note: RecordID<DeviceNoteRecord>) -> String { "/devices/\(id)/notes/\(note)/edit" }
    static func deviceNote(_ id: RecordID<DeviceRecord>, _ note: RecordID<DeviceNoteRecord>) -> String { "/devices/\(id)/notes/\(note)" }
    static func deviceNoteDelete(_ id: RecordID<DeviceRecord>, _ note: RecordID<DeviceNoteRecord>) -> String { "/devices/\(id)/notes/\(note)/delete" }
    /// What changed on the device page since it loaded: new log lines and command states.
    static func deviceLive(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/live" }
    static func deviceEvents(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/events" }
    static func deviceFeedbackPage(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)/feedback" }
    /// An app's feedback history on a device.
    static func deviceFeedback(_ id: RecordID<DeviceRecord>, app: String) -> String {
        "/devices/\(id)/feedback?app=" + (app.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
    /// The device list showing one group's devices.
    static func devices(in group: RecordID<DeviceGroupRecord>) -> String { "/devices?group=\(group)" }

    // MARK: simulator and logs

    static func simulator(_ id: RecordID<DeviceRecord>) -> String { "/simulator/\(id)" }
    /// The simulator's Server-Sent Events stream and its polling fallback.
    static func simulatorEvents(_ id: RecordID<DeviceRecord>) -> String { "/simulator/\(id)/events" }
    static func simulatorRevision(_ id: RecordID<DeviceRecord>) -> String { "/simulator/\(id)/revision" }
    static func simulatorActions(_ id: RecordID<DeviceRecord>) -> String { "/simulator/\(id)/actions" }
    /// The simulator with iOS's confirmation asked before an app locks the device.
    static func simulatorPrompt(_ id: RecordID<DeviceRecord>, mode: LockRequestMode) -> String { "/simulator/\(id)?prompt=\(mode.rawValue)" }
    static let logExport = "/logs/export"
    static let logDeletion = "/logs/delete"
    /// Crash groups: every app's, or one app's; every device's, or one device's.
    static let crashGroups = "/logs/crashes"
    static func crashGroups(app: String) -> String { crashGroups(app: app, device: nil) }
    static func crashGroups(of device: RecordID<DeviceRecord>) -> String { crashGroups(app: nil, device: device) }
    static func crashGroups(app: String?, device: RecordID<DeviceRecord>?, hours: Int? = nil) -> String {
        let parts = [app.map { "app=" + ($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "") }, device.map { "device=\($0)" },
                     hours.map { "hours=\($0)" }]
        let query = parts.compactMap { $0 }.joined(separator: "&")
        return query.isEmpty ? crashGroups : crashGroups + "?" + query
    }
    /// The log viewer showing one app's lines: its crash groups and storage first.
    static func logs(app: String) -> String {
        logs + "?app=" + (app.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
    /// The log viewer showing one device's lines.
    static func logs(of device: RecordID<DeviceRecord>) -> String { "/logs?device=\(device)" }

    // MARK: profiles

    static func profile(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)" }
    static func profileHistory(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/history" }
    static func profileDetails(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/details" }
    static func profileDelete(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/delete" }
    static func profileClone(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/clone" }
    static func profileAssignments(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/assignments" }
    /// What an assignment would do, before it is made (the group comes as `groupID`).
    static func profileAssignmentPreview(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)/assignments/preview" }
    static func profileUnassign(_ id: RecordID<ProfileRecord>, from group: RecordID<DeviceGroupRecord>) -> String {
        "/profiles/\(id)/assignments/\(group)/remove"
    }
    static func profileVersion(_ id: RecordID<ProfileRecord>, _ number: Int) -> String { "/profiles/\(id)/versions/\(number)" }
    static func profileRestore(_ id: RecordID<ProfileRecord>, _ number: Int) -> String { "/profiles/\(id)/versions/\(number)/restore" }
    static func profileExport(_ id: RecordID<ProfileRecord>, _ number: Int, signed: Bool) -> String {
        "/profiles/\(id)/versions/\(number)/mobileconfig" + (signed ? "?signed=true" : "")
    }
    static func payloadForm(_ id: RecordID<ProfileRecord>, _ kind: PayloadKind) -> String { "/profiles/\(id)/payloads/\(kind.rawValue)" }
    static func payloadRemove(_ id: RecordID<ProfileRecord>, _ kind: PayloadKind) -> String { "/profiles/\(id)/payloads/\(kind.rawValue)/remove" }
    /// A stored image (logos), by its key.
    static func image(_ key: String) -> String { "/images/\(key)" }
}
