import Domain
import Foundation
import Signing
import Storage

/// One-time enrollment links. The link's token is the secret an admin hands to the person
/// enrolling; the SCEP challenge in its profile is derived from it, so the database keeps
/// hashes of both and never a secret that would enroll a device. The link answers its
/// profile until it expires or its challenge is used; the challenge is good for one
/// certificate.
struct EnrollmentLinks: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    static let defaultLifetimeHours = 24
    /// A month: a link is a secret in someone's mail, best short-lived.
    static let lifetimeHours = 1...720

    enum Refusal: Error, Equatable {
        case groupNotFound
        case lifetimeOutOfRange
        case linkNotFound
        /// A device enrolled with it: revoking the link would change nothing.
        case linkUsed
    }

    struct Created: Sendable {
        let link: MDMEnrollmentLinkRecord
        let token: String
        let groupName: String
    }

    /// Where a link stands when a device asks for its profile.
    enum State: Sendable {
        case usable(MDMEnrollmentLinkRecord, groupName: String, organisation: String)
        case expired, revoked, used, unknown
    }

    /// A link as the enrollment page and the API list it.
    struct Listed: Sendable {
        let link: MDMEnrollmentLinkRecord
        let groupName: String

        func standing(at time: Date) -> Standing {
            if link.challengeUsedAt != nil { return .used }
            if link.revokedAt != nil { return .revoked }
            return link.expiresAt <= time ? .expired : .usable
        }
    }

    /// Where a link stands for an admin.
    enum Standing: String, Codable, Sendable, CaseIterable {
        case usable, used, expired, revoked
    }

    /// The latest links, newest first (before `before`, an id, for the next page), and every
    /// group a link can be made for.
    func overview(limit: Int = 20, before: RecordID<MDMEnrollmentLinkRecord>? = nil) async throws -> (links: [Listed], groups: [DeviceGroupRecord]) {
        try await database.read { connection in
            let groups = try connection.fetch(DeviceGroupRecord.query().order(by: "name"))
            let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id, $0.name) })
            var query = MDMEnrollmentLinkRecord.query().order(by: "id", .descending).limit(limit)
            if let before { query = query.filter("id", .less, before) }
            let links = try connection.fetch(query)
            return (links.map { Listed(link: $0, groupName: names[$0.groupID] ?? "a removed group") }, groups)
        }
    }

    /// Ends an unused link now: its page and profile answer that it expired, and its SCEP
    /// challenge issues nothing. A link already expired stays as it was.
    func revoke(_ id: RecordID<MDMEnrollmentLinkRecord>, by actor: Actor) async throws -> Listed {
        let time = now()
        return try await database.write { connection in
            guard var link = try connection.find(MDMEnrollmentLinkRecord.self, id: id) else { throw Refusal.linkNotFound }
            guard link.challengeUsedAt == nil else { throw Refusal.linkUsed }
            let group = try connection.find(DeviceGroupRecord.self, id: link.groupID)
            if link.expiresAt > time {
                link.expiresAt = time
                link.revokedAt = time
                try connection.update(link)
                try connection.audit(.enrollmentLinkRevoked, subject: group?.name ?? "group \(link.groupID)", by: actor, after: "link \(link.id)", at: time)
            }
            return Listed(link: link, groupName: group?.name ?? "a removed group")
        }
    }

    func create(group groupID: RecordID<DeviceGroupRecord>, lifetimeHours: Int, by actor: Actor) async throws -> Created {
        guard Self.lifetimeHours.contains(lifetimeHours) else { throw Refusal.lifetimeOutOfRange }
        let token = SecretToken.generate()
        let time = now()
        let (link, groupName) = try await database.write { connection in
            guard let group = try connection.find(DeviceGroupRecord.self, id: groupID) else { throw Refusal.groupNotFound }
            let link = try connection.insert(MDMEnrollmentLinkRecord(
                linkHash: SecretToken.digest(token), challengeHash: SecretToken.digest(Self.challenge(for: token)), groupID: groupID,
                createdBy: actor.email, createdAt: time, expiresAt: time.addingTimeInterval(TimeInterval(lifetimeHours) * 3600)))
            try connection.audit(.enrollmentLinkCreated, subject: group.name, by: actor,
                                 after: "link \(link.id), valid \(lifetimeHours) h", at: time)
            return (link, group.name)
        }
        return Created(link: link, token: token, groupName: groupName)
    }

    /// The SCEP challenge a link's profile carries: derived, so that only the link's holder
    /// can know it, and long enough (128 bits) that guessing one is hopeless.
    static func challenge(for token: String) -> String {
        String(SHA256Digest.hex(of: "payload-console scep challenge:" + token).prefix(32))
    }

    func state(of token: String) async throws -> State {
        let time = now()
        return try await database.read { connection in
            guard let link = try connection.fetchOne(MDMEnrollmentLinkRecord.query().filter("linkHash", .equal, SecretToken.digest(token))) else {
                return .unknown
            }
            if link.challengeUsedAt != nil { return .used }
            if link.revokedAt != nil { return .revoked }
            if link.expiresAt <= time { return .expired }
            let group = try connection.require(DeviceGroupRecord.self, id: link.groupID)
            let organisation = try ConsoleSettings.load(from: connection).organisationName
            return .usable(link, groupName: group.name, organisation: organisation.isEmpty ? "Your organisation" : organisation)
        }
    }

    /// Records the certificate SCEP issued for `challenge`, using up the link whose challenge it
    /// is, with the link's group — or records nothing and answers false when no link has that
    /// challenge, or its link expired or was used.
    func recordIssue(of issued: IssuedCertificate, challenge: String) async throws -> Bool {
        let time = now()
        return try await database.write { connection in
            guard let link = try Self.useChallenge(challenge, at: time, connection: connection) else { return false }
            _ = try connection.insert(MDMCertificateRecord(
                serial: issued.serialHex, fingerprint: issued.sha256Fingerprint, linkID: link.id, groupID: link.groupID, deviceID: nil,
                subject: issued.subject, issuedAt: time, notAfter: issued.notAfter))
            let group = try connection.find(DeviceGroupRecord.self, id: link.groupID)
            try connection.audit(.deviceCertificateIssued, subject: group?.name ?? "group \(link.groupID)", by: .system,
                                 after: "serial \(issued.serialHex.prefix(16)) for enrollment link \(link.id)", at: time)
            return true
        }
    }

    /// Uses up the link whose challenge this is: the link, or nil when no link has it, it
    /// expired or it was used (one statement, so two requests with one challenge cannot both
    /// use it).
    private static func useChallenge(_ challenge: String, at time: Date, connection: Connection) throws -> MDMEnrollmentLinkRecord? {
        let hash = SecretToken.digest(challenge)
        let used = try connection.execute("""
            UPDATE mdm_enrollment_links SET challengeUsedAt = \(time)
            WHERE challengeHash = \(hash) AND challengeUsedAt IS NULL AND expiresAt > \(time)
            """)
        guard used == 1 else { return nil }
        return try connection.fetchOne(MDMEnrollmentLinkRecord.query().filter("challengeHash", .equal, hash))
    }
}
