/// Audit actions are stored as stable codes ("user.created") and shown in words.
enum AuditWording {
    static func describe(_ action: String) -> String {
        switch action {
        case "user.created": "added the user"
        case "user.deleted": "removed the user"
        case "user.role_changed": "changed the role of"
        case "user.password_changed": "changed the password of"
        case "user.signed_in": "signed in"
        case "user.signed_out": "signed out"
        case "app.created": "added the app"
        case "app.updated": "changed the app"
        case "app.deleted": "removed the app"
        case "group.created": "added the group"
        case "group.updated": "changed the group"
        case "group.deleted": "removed the group"
        case "device.created": "added the device"
        case "device.updated": "changed the device"
        case "device.deleted": "removed the device"
        case "profile.created": "created the profile"
        case "profile.cloned": "copied a profile as"
        case "signing.replaced": "replaced the signing certificate with"
        case "signing.generated": "generated the signing certificate"
        case "signing.adopted": "took into the database the signing certificate from its data directory,"
        case "token.created": "created the API token"
        case "token.revoked": "revoked the API token"
        case "profile.edited": "saved a new version of"
        case "profile.restored": "restored an old version of"
        case "profile.deleted": "deleted the profile"
        case "profile.assigned": "assigned the profile"
        case "profile.unassigned": "unassigned the profile"
        case "logs.deleted": "deleted log lines:"
        case "device.command": "queued a command for"
        case "device.enrolled": "enrolled"
        case "device.token_issued": "issued a check-in token for"
        case "note.added": "added a note on"
        case "note.edited": "edited a note on"
        case "note.deleted": "deleted a note on"
        case "settings.updated": "changed the console settings:"
        default: action
        }
    }
}
