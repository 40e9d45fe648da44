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

    public var summary: String {
        switch self {
        case .viewer: "Reads devices, profiles and logs; changes nothing."
        case .helpdesk: "Reads everything and asks devices for logs and feedback."
        case .admin: "Authors payloads and profiles, assigns them, and manages users."
        }
    }
}
