import Domain
import Foundation
import Storage

/// A token a script sends as `Authorization: Bearer …`, with the role it acts with.
struct APITokenRecord: Record {
    static let tableName = "api_tokens"

    var id: RecordID<APITokenRecord> = .unsaved
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

    /// Every token, revoked ones too, newest first.
    func all() async throws -> [APITokenRecord] {
        try await database.read { try $0.fetch(APITokenRecord.query().order(by: "id", .descending)) }
    }
    /// Tokens start with this, so a leaked one is easy to recognise in logs and scanners.
    static let prefix = "pct_"

    func create(name: String, role: Role, by actor: Actor) async throws -> (token: String, record: APITokenRecord) {
        let trimmed = name.trimmingWhitespace()
        guard !trimmed.isEmpty, trimmed.count <= 80 else {
            throw FieldErrors("name", "Name the token after the script that uses it, in 80 characters or fewer.")
        }
        if let problem = PlainText.problem(trimmed) { throw FieldErrors("name", problem) }
        let token = Self.prefix + SecretToken.generate()
        let time = now()
        let record = try await database.write { connection in
            let record = try connection.insert(APITokenRecord(
                name: trimmed, tokenHash: SecretToken.digest(token), role: role,
                createdBy: actor.email, createdAt: time, lastUsedAt: nil, revokedAt: nil))
            try connection.audit(.tokenCreated, subject: trimmed, by: actor, after: "role: \(role.rawValue)", at: time)
            return record
        }
        return (token, record)
    }

    /// A live token and the role it acts with now.
    struct Authorised {
        let record: APITokenRecord
        /// The token's role, lowered to its creator's current role: a token never does more
        /// than the person who made it may do today.
        let role: Role
        /// The person who made it; nil for a token made on the command line.
        let creatorID: RecordID<User>?
    }

    /// The live token for a bearer value, or nil when it is unknown, revoked, or its creator's
    /// account is gone. Marks it used at most once a minute.
    func find(_ token: String) async throws -> Authorised? {
        guard token.hasPrefix(Self.prefix) else { return nil }
        let hash = SecretToken.digest(token)
        let found = try await database.read { connection -> (APITokenRecord, User?)? in
            guard let record = try connection.fetchOne(APITokenRecord.query().filter("tokenHash", .equal, hash)) else { return nil }
            return (record, try connection.fetchOne(User.query().filter("email", .equal, record.createdBy)))
        }
        guard let (found, creator) = found, found.revokedAt == nil else { return nil }
        var record = found
        // Tokens made on the command line belong to whoever runs the server, not to an account.
        let role: Role
        if record.createdBy == Actor.system.email {
            role = record.role
        } else {
            guard let creator else { return nil }
            role = min(record.role, creator.role)
        }
        let time = now()
        if record.lastUsedAt.map({ time.timeIntervalSince($0) > 60 }) ?? true {
            record.lastUsedAt = time
            let id = record.id
            try await database.writeBookkeeping { try $0.execute("UPDATE api_tokens SET lastUsedAt = \(time) WHERE id = \(id)") }
        }
        return Authorised(record: record, role: role, creatorID: creator?.id)
    }

    func revoke(_ id: RecordID<APITokenRecord>, by actor: Actor) async throws {
        let time = now()
        try await database.write { connection in
            var record = try connection.require(APITokenRecord.self, id: id)
            guard record.revokedAt == nil else { return }
            record.revokedAt = time
            try connection.update(record)
            try connection.audit(.tokenRevoked, subject: record.name, by: actor, before: "role: \(record.role.rawValue)", at: time)
        }
    }
}
