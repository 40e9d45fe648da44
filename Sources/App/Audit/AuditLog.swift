import Foundation
import Storage

/// Reading the audit log, and writing the entries of changes that are not database writes
/// themselves, such as the signing identity replaced on disk. Every other change writes its
/// entry inside its own transaction (`Connection.audit`), so the entry exists exactly when the
/// change does.
struct AuditLog: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// The newest entries (`limit` of them) older than `before`, newest first.
    func entries(before: RecordID<AuditEvent>?, limit: Int) async throws -> [AuditEvent] {
        var query = AuditEvent.query().order(by: "id", .descending).limit(limit)
        if let before { query = query.filter("id", .less, before) }
        let page = query
        return try await database.read { try $0.fetch(page) }
    }

    func record(_ action: String, subject: String, by actor: Actor, before: String? = nil, after: String? = nil) async throws {
        try await database.write { try $0.audit(action, subject: subject, by: actor, before: before, after: after, at: now()) }
    }
}
