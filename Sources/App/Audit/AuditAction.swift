/// What an audit entry records. Stored as its stable code ("user.created": the raw value, which
/// the CSV export and API readers rely on), shown as its wording beside who did it and to what:
/// "alice@example.com added the user bob@example.com". A new action is a new case here; the
/// compiler then asks for its wording, and a code typed anywhere else cannot be recorded.
enum AuditAction: String, CaseIterable, Sendable {
    case userCreated = "user.created"
    case userDeleted = "user.deleted"
    case userRoleChanged = "user.role_changed"
    case userPasswordChanged = "user.password_changed"
    case userSignedIn = "user.signed_in"
    case userSignedOut = "user.signed_out"
    case appCreated = "app.created"
    case appUpdated = "app.updated"
    case appDeleted = "app.deleted"
    case appSpecfileImported = "app.specfile"
    case groupCreated = "group.created"
    case groupUpdated = "group.updated"
    case groupDeleted = "group.deleted"
    case deviceCreated = "device.created"
    case deviceUpdated = "device.updated"
    case deviceDeleted = "device.deleted"
    case deviceCommand = "device.command"
    case deviceCommandCancelled = "device.command_cancelled"
    case deviceCommandsCleared = "device.commands_cleared"
    case deviceEnrolled = "device.enrolled"
    case deviceUnenrolled = "device.unenrolled"
    case deviceTokenIssued = "device.token_issued"
    case profileCreated = "profile.created"
    case profileCloned = "profile.cloned"
    case profileImported = "profile.imported"
    case profileEdited = "profile.edited"
    case profileRestored = "profile.restored"
    case profileDeleted = "profile.deleted"
    case profileAssigned = "profile.assigned"
    case profileUnassigned = "profile.unassigned"
    case signingReplaced = "signing.replaced"
    case signingGenerated = "signing.generated"
    case signingAdopted = "signing.adopted"
    case tokenCreated = "token.created"
    case tokenRevoked = "token.revoked"
    case logsDeleted = "logs.deleted"
    case logsPurged = "logs.purged"
    case noteAdded = "note.added"
    case noteEdited = "note.edited"
    case noteDeleted = "note.deleted"
    case settingsUpdated = "settings.updated"

    /// The phrase between the person and the subject. The dashboard's feed counts runs of one
    /// action through `ActivityFeed.plural`, so "added the device" reads "added 12 devices".
    var wording: String {
        switch self {
        case .userCreated: "added the user"
        case .userDeleted: "removed the user"
        case .userRoleChanged: "changed the role of"
        case .userPasswordChanged: "changed the password of"
        case .userSignedIn: "signed in"
        case .userSignedOut: "signed out"
        case .appCreated: "added the app"
        case .appUpdated: "changed the app"
        case .appDeleted: "removed the app"
        case .appSpecfileImported: "imported a specfile for"
        case .groupCreated: "added the group"
        case .groupUpdated: "changed the group"
        case .groupDeleted: "removed the group"
        case .deviceCreated: "added the device"
        case .deviceUpdated: "changed the device"
        case .deviceDeleted: "removed the device"
        case .deviceCommand: "queued a command for"
        case .deviceCommandCancelled: "cancelled a command for"
        case .deviceCommandsCleared: "cleared the command queue of"
        case .deviceEnrolled: "enrolled"
        case .deviceUnenrolled: "unenrolled"
        case .deviceTokenIssued: "issued a check-in token for"
        case .profileCreated: "created the profile"
        case .profileCloned: "copied a profile as"
        case .profileImported: "imported the profile"
        case .profileEdited: "saved a new version of"
        case .profileRestored: "restored an old version of"
        case .profileDeleted: "deleted the profile"
        case .profileAssigned: "assigned the profile"
        case .profileUnassigned: "unassigned the profile"
        case .signingReplaced: "replaced the signing certificate with"
        case .signingGenerated: "generated the signing certificate"
        case .signingAdopted: "took into the database the signing certificate from its data directory,"
        case .tokenCreated: "created the API token"
        case .tokenRevoked: "revoked the API token"
        case .logsDeleted: "deleted log lines:"
        case .logsPurged: "purged log lines"
        case .noteAdded: "added a note on"
        case .noteEdited: "edited a note on"
        case .noteDeleted: "deleted a note on"
        case .settingsUpdated: "changed the console settings:"
        }
    }
}

extension AuditEvent {
    /// How the entry's action reads. An entry whose code this console does not know (written
    /// by another version of it, sharing the database) shows its code: the log keeps every
    /// entry readable rather than hiding one.
    var wording: String { AuditAction(rawValue: action)?.wording ?? action }
}
