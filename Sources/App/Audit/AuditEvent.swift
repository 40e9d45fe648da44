import Foundation
import Storage

/// One change someone made, kept for the audit log page: who, when, what, before and after.
struct AuditEvent: Record {
    static let tableName = "audit_events"

    var id: RecordID<AuditEvent> = .unsaved
    var occurredAt: Date
    var actorID: RecordID<User>?
    /// Kept as text so the entry still names its author after the account is removed.
    var actorEmail: String
    var action: String
    var subject: String
    var before: String?
    var after: String?
}

extension AuditEvent {
    /// A new entry: `action` by `actor` at `time`, stored under the action's code.
    init(_ action: AuditAction, subject: String, by actor: Actor, before: String? = nil, after: String? = nil, at time: Date) {
        self.init(occurredAt: time, actorID: actor.userID, actorEmail: actor.email,
                  action: action.rawValue, subject: subject, before: before, after: after)
    }
}

/// Who did something: a signed-in user, or the console itself (start-up, command line).
package struct Actor: Sendable {
    var userID: RecordID<User>?
    var email: String

    package static let system = Actor(userID: nil, email: "console")

    init(userID: RecordID<User>?, email: String) {
        self.userID = userID
        self.email = email
    }

    init(_ user: User) {
        self.init(userID: user.id.ifSaved, email: user.email)
    }
}

extension Connection {
    /// Writes an audit entry in the caller's transaction, so the entry exists exactly when the
    /// change it describes does.
    func audit(
        _ action: AuditAction, subject: String, by actor: Actor,
        before: String? = nil, after: String? = nil, at time: Date = Date()
    ) throws {
        _ = try insert(AuditEvent(action, subject: subject, by: actor, before: before, after: after, at: time))
    }
}
