import Domain
import Foundation
import Storage

/// A token a script sends as `Authorization: Bearer …`, with the role it acts with.
struct APITokenRecord: Record {
    static let tableName = "api_tokens"

    var id: RecordID<APITokenRecord>?
    var name: String
    var tokenHash: String
    var role: Role
    var createdBy: String
    var createdAt: Date
    var lastUsedAt: Date?
    var revokedAt: Date?
}

/// Issuing, finding and revoking API tokens.
struct APITokenStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date
    /// Tokens start with this, so a leaked one is easy to recognise in logs and scanners.
    static let prefix = "pct_"

    func create(name: String, role: Role, by actor: Actor) throws -> (token: String, record: APITokenRecord) {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 80 else {
            throw FieldErrors("name", "Name the token after the script that uses it, in 80 characters or fewer.")
        }
        let token = Self.prefix + SecretToken.generate()
        let time = now()
        let record = try database.write { connection in
            let record = try connection.insert(APITokenRecord(
                id: nil, name: trimmed, tokenHash: SecretToken.digest(token), role: role,
                createdBy: actor.email, createdAt: time, lastUsedAt: nil, revokedAt: nil))
            try connection.audit("token.created", subject: trimmed, by: actor, after: "role: \(role.rawValue)", at: time)
            return record
        }
        return (token, record)
    }

    /// The live token for a bearer value, or nil. Marks it used at most once a minute.
    func find(_ token: String) throws -> APITokenRecord? {
        guard token.hasPrefix(Self.prefix) else { return nil }
        let hash = SecretToken.digest(token)
        guard var record = try database.read({ try $0.fetchOne(APITokenRecord.query().filter("tokenHash", .equal, hash)) }),
              record.revokedAt == nil
        else { return nil }
        let time = now()
        if record.lastUsedAt.map({ time.timeIntervalSince($0) > 60 }) ?? true {
            record.lastUsedAt = time
            let id = try record.requireID
            try database.write { try $0.execute("UPDATE api_tokens SET lastUsedAt = \(time) WHERE id = \(id)") }
        }
        return record
    }

    func revoke(_ id: RecordID<APITokenRecord>, by actor: Actor) throws {
        let time = now()
        try database.write { connection in
            var record = try connection.require(APITokenRecord.self, id: id)
            guard record.revokedAt == nil else { return }
            record.revokedAt = time
            try connection.update(record)
            try connection.audit("token.revoked", subject: record.name, by: actor, before: "role: \(record.role.rawValue)", at: time)
        }
    }
}
