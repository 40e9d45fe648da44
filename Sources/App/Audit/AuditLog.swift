import Foundation
import Storage

/// Audit entries for changes that are not database writes themselves, such as the signing
/// identity replaced on disk. Every other change writes its entry inside its own transaction
/// (`Connection.audit`), so the entry exists exactly when the change does.
struct AuditLog: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    func record(_ action: String, subject: String, by actor: Actor, before: String? = nil, after: String? = nil) async throws {
        try await database.write { try $0.audit(action, subject: subject, by: actor, before: before, after: after, at: now()) }
    }
}
