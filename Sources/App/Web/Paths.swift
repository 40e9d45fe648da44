import Foundation
import Storage

/// The console's page addresses, typed by the records they show, for the redirects and links
/// built in Swift, so a moved page changes in one place. Route patterns stay beside their
/// handlers; templates build the same addresses from the ids they are given.
enum Paths {
    static let dashboard = "/dashboard"
    static let signIn = "/sign-in"
    static let passwordChange = "/account/password"
    static let users = "/users"
    static let apps = "/apps"
    static let groups = "/groups"
    static let devices = "/devices"
    static let profiles = "/profiles"
    static let tokens = "/tokens"
    static let signing = "/signing"
    static let logs = "/logs"
    static let audit = "/audit"
    /// Where the enroll-a-simulated-device form posts.
    static let enrollment = "/simulator"

    static func device(_ id: RecordID<DeviceRecord>) -> String { "/devices/\(id)" }
    static func simulator(_ id: RecordID<DeviceRecord>) -> String { "/simulator/\(id)" }
    static func profile(_ id: RecordID<ProfileRecord>) -> String { "/profiles/\(id)" }

    /// The sign-in page, returning to `next` (a same-origin path) afterwards.
    static func signIn(next: String) -> String {
        signIn + "?next=" + (next.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
    }
}
