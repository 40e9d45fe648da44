import Foundation
import Storage

/// Reading the audit log. Every change writes its entry inside its own transaction
/// (`Connection.audit`), so the entry exists exactly when the change does.
struct AuditLog: Sendable {
    let database: Database

    /// The newest entries (`limit` of them) matching `filter` and older than its `before`,
    /// newest first, with everyone who has an entry (for the person filter).
    func entries(_ filter: AuditFilter, limit: Int) async throws -> (entries: [AuditEvent], people: [String]) {
        var query = filter.query().order(by: "id", .descending).limit(limit)
        if let before = filter.before { query = query.filter("id", .less, before) }
        let page = query
        return try await database.read { connection in
            (try connection.fetch(page),
             try connection.rows("SELECT DISTINCT actorEmail FROM audit_events ORDER BY actorEmail").map { try $0.first(as: String.self) })
        }
    }

    /// Up to `limit` entries matching `filter` with ids up to `through` (the newest when the
    /// download began) and below `before`, newest first as the page lists them: one chunk of a
    /// CSV download, each chunk its own short read.
    func chunk(_ filter: AuditFilter, before: RecordID<AuditEvent>?, through last: RecordID<AuditEvent>, limit: Int) async throws -> [AuditEvent] {
        var query = filter.query().filter("id", .lessOrEqual, last).order(by: "id", .descending).limit(limit)
        if let before { query = query.filter("id", .less, before) }
        let chunk = query
        return try await database.read { try $0.fetch(chunk) }
    }

    func newestID() async throws -> RecordID<AuditEvent>? {
        try await database.read { try $0.scalar("SELECT max(id) FROM audit_events", as: Int64.self) }.map { RecordID($0) }
    }
}
