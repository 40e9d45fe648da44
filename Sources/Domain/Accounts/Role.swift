/// What a console user may do. Each role includes everything the roles below it may do:
/// a viewer reads, helpdesk staff also act on devices, an admin also authors and administers.
public enum Role: String, CaseIterable, Codable, Sendable, Comparable {
    case viewer
    case helpdesk
    case admin

    private var rank: Int {
        switch self {
        case .viewer: 0
        case .helpdesk: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// True when a user with this role may use something that requires `required`.
    public func includes(_ required: Role) -> Bool { self >= required }

    public var displayName: String {
        switch self {
        case .viewer: "Viewer"
        case .helpdesk: "Helpdesk"
        case .admin: "Admin"
        }
    }

    /// What the role may do, as the server enforces it (the users page shows this).
    public var summary: String {
        switch self {
        case .viewer:
            "Reads devices, groups, apps, profiles with their history and exports, and effective policy; watches the simulator. "
                + "Sees no app logs, feedback or notes, and changes nothing."
        case .helpdesk:
            "Everything a viewer does, and: reads, searches and downloads app logs and crash groups, reads managed app feedback, "
                + "writes notes (changes only their own), asks devices for logs and feedback, restarts a device, clears a Guided Access "
                + "passcode, and plays the simulator. Cannot delete logs, send app configuration, or change devices, groups or profiles."
        case .admin:
            "Everything: also authors payloads and profiles and assigns them, sends app configuration, adds, moves and removes devices, "
                + "deletes logs, changes anyone's notes, and manages users, API tokens, signing and settings."
        }
    }
}
