import Domain
import Foundation
import Storage

/// Creating and deleting profiles and adding versions to them, with the rules that make history safe:
/// versions are never changed, each save states the version it started from, and payload
/// UUIDs stay stable per kind.
package struct ProfileStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    package init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// Someone saved a newer version since this edit began.
    struct Conflict: Error {
        let latest: ProfileVersionRecord
    }

    package func create(identifier: String, content: ProfileContent, by actor: Actor) async throws -> ProfileRecord {
        let time = now()
        return try await database.write { connection in
            let profile = try Self.insertFirstVersion(identifier: identifier, content: content, note: "Created", by: actor, at: time, in: connection)
            try connection.audit(.profileCreated, subject: profile.auditSubject, by: actor, after: "version 1", at: time)
            return profile
        }
    }

    /// A new profile with the latest version's payloads and description, named "Copy of …"
    /// under the first free identifier ending in `.copy`, `.copy-2`, … (the source's part
    /// shortened to keep within an identifier's length); not assigned to any group, so it
    /// changes no device until someone assigns it. Its payloads get UUIDs of their own: a
    /// device with both profiles keeps them apart.
    func clone(_ id: RecordID<ProfileRecord>, by actor: Actor) async throws -> ProfileRecord {
        let time = now()
        return try await database.write { connection in
            let source = try connection.require(ProfileRecord.self, id: id)
            let latest = try ProfileReader.latestVersion(of: id, in: connection)
            var content = latest.content
            content.name = String(("Copy of " + source.name).prefix(ProfileRules.maximumNameLength))
            let profile = try Self.insertFirstVersion(identifier: try Self.freeIdentifier(source.identifier, suffix: "copy", in: connection),
                                                      content: content,
                                                      note: "Copied from \(source.name), version \(latest.number)", by: actor, at: time, in: connection)
            try connection.audit(.profileCloned, subject: profile.auditSubject, by: actor,
                                 after: "copy of \(source.auditSubject), version \(latest.number)", at: time)
            return profile
        }
    }

    /// The first identifier no profile uses among `base.suffix`, `base.suffix-2`, …, the
    /// base's part shortened (and any dot or hyphen it then ends in dropped) so each fits.
    static func freeIdentifier(_ base: String, suffix: String, in connection: Connection) throws -> String {
        func identifier(_ attempt: Int) -> String {
            let ending = attempt == 1 ? ".\(suffix)" : ".\(suffix)-\(attempt)"
            var kept = base.prefix(BundleID.maximumLength - ending.count)
            while kept.last == "." || kept.last == "-" { kept = kept.dropLast() }
            return kept + ending
        }
        var attempt = 1
        while try isTaken(identifier(attempt), in: connection) { attempt += 1 }
        return identifier(attempt)
    }

    static func isTaken(_ identifier: String, in connection: Connection) throws -> Bool {
        try connection.count(ProfileRecord.query().filter("identifier", .equal, identifier)) > 0
    }

    /// A profile and its version 1, with payload UUIDs of its own.
    static func insertFirstVersion(identifier: String, content: ProfileContent, note: String, by actor: Actor, at time: Date,
                                           in connection: Connection) throws -> ProfileRecord {
        let profile = try connection.insert(ProfileRecord(
            identifier: identifier, name: content.name, version: 1,
            payloadUUIDs: uuids(for: content, keeping: [:]), payloadKinds: content.payloads.map(\.kind),
            createdAt: time, updatedAt: time))
        _ = try connection.insert(ProfileVersionRecord(
            profileID: profile.id, number: 1, uuid: UUID().uuidString, content: content,
            note: note, authorID: actor.userID, authorEmail: actor.email, createdAt: time))
        return profile
    }

    /// Deletes the profile with its history and assignments (devices lose its payloads at
    /// their next check-in).
    func delete(_ id: RecordID<ProfileRecord>, by actor: Actor) async throws -> ProfileRecord {
        try await database.write { connection in
            let profile = try connection.require(ProfileRecord.self, id: id)
            try connection.delete(ProfileRecord.self, id: id)
            try connection.audit(.profileDeleted, subject: profile.auditSubject, by: actor, before: "version \(profile.version)", at: now())
            return profile
        }
    }

    /// Saves `content` as the next version, if the latest is still `baseVersion` (a newer one
    /// is a `Conflict`); nil saves over whatever is current.
    @discardableResult
    func saveVersion(of profileID: RecordID<ProfileRecord>, basedOn baseVersion: Int?, content: ProfileContent,
                     note: String, action: AuditAction = .profileEdited, by actor: Actor) async throws -> ProfileVersionRecord {
        let time = now()
        return try await database.write { connection in
            let profile = try connection.require(ProfileRecord.self, id: profileID)
            if let baseVersion, profile.version != baseVersion { throw Conflict(latest: try ProfileReader.latestVersion(of: profileID, in: connection)) }
            return try Self.insertVersion(of: profileID, content: content, note: note, action: action, by: actor, at: time, in: connection).version
        }
    }

    /// `content` as the profile's next version, with the audit entry saying what changed; in
    /// the caller's transaction (a save, or an import into an existing profile).
    static func insertVersion(of profileID: RecordID<ProfileRecord>, content: ProfileContent, note: String, action: AuditAction, by actor: Actor,
                              at time: Date, in connection: Connection) throws -> (profile: ProfileRecord, version: ProfileVersionRecord) {
        var profile = try connection.require(ProfileRecord.self, id: profileID)
        let previous = try ProfileReader.latestVersion(of: profileID, in: connection)
        profile.name = content.name
        profile.payloadUUIDs = Self.uuids(for: content, keeping: profile.payloadUUIDs)
        profile.payloadKinds = content.payloads.map(\.kind)
        profile.updatedAt = time
        profile = try connection.update(checkingVersion: profile)
        let saved = try connection.insert(ProfileVersionRecord(
            profileID: profileID, number: profile.version, uuid: UUID().uuidString, content: content,
            note: note, authorID: actor.userID, authorEmail: actor.email, createdAt: time))
        let changes = ProfileDiff.changes(from: previous.content, to: content)
        try connection.audit(action, subject: profile.auditSubject, by: actor,
                             before: Self.describe(changes, side: \.before, version: previous.number),
                             after: Self.describe(changes, side: \.after, version: saved.number), at: time)
        return (profile, saved)
    }

    /// Keeps the UUIDs of kinds still present and mints one for each new kind.
    static func uuids(for content: ProfileContent, keeping existing: [String: String]) -> [String: String] {
        var uuids = existing
        for payload in content.payloads where uuids[payload.kind.rawValue] == nil {
            uuids[payload.kind.rawValue] = UUID().uuidString
        }
        return uuids
    }

    private static func describe(_ changes: [ProfileChange], side: KeyPath<ProfileChange, String?>, version: Int) -> String {
        let lines = changes.prefix(40).map { "\($0.field): \($0[keyPath: side] ?? "(absent)")" }
        return (["version \(version)"] + lines).joined(separator: "\n")
    }
}
