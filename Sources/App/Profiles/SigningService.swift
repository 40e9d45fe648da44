import Foundation
import Logging
import Signing
import Storage

/// The identity that signs exported profiles. It lives in the database (`StoredSigningIdentity`),
/// so every console on one database signs with the same certificate, and one an admin uploads
/// through any of them signs the next export of all of them. Each use reads the row afresh —
/// one small read beside an RSA signature, which parses the PEM again anyway — so nothing held in
/// memory can outlive a replacement made through another console.
final class SigningService: Sendable {
    /// The identity in use, with what the signing page says about it.
    struct Current: Sendable {
        let identity: SigningIdentity
        let origin: StoredSigningIdentity.Origin
        let setBy: String
        let setAt: Date
    }

    private let database: Database
    /// Where consoles before migration 22 kept the identity as files (`cert.pem`, `key.pem`):
    /// adopted into the database when it has none, and never written or removed.
    let filesDirectory: String
    private let now: @Sendable () -> Date

    init(database: Database, dataDirectory: String, now: @escaping @Sendable () -> Date) {
        self.database = database
        filesDirectory = (dataDirectory as NSString).appendingPathComponent("signing")
        self.now = now
    }

    /// The identity in use. The first use with none stored — a signature, or the signing page —
    /// adopts an older console's files (which fail it while unreadable) or generates one.
    func current() async throws -> Current {
        if let stored = try await stored() { return stored }
        let identity: SigningIdentity, origin: StoredSigningIdentity.Origin
        if let files = try SigningIdentity.load(fromDirectory: filesDirectory) {
            (identity, origin) = (files, .adopted)
        } else {
            (identity, origin) = (try SigningIdentity.generateSelfSigned(commonName: "Payload Console Profile Signing", organization: "Payload Console"), .generated)
        }
        return try await storeIfAbsent(identity, origin: origin).current
    }

    func sign(_ content: [UInt8]) async throws -> [UInt8] {
        try ProfileSigner.sign(content, with: try await current().identity)
    }

    /// The stored identity, nil while there is none (nothing is created).
    func stored() async throws -> Current? {
        try await database.read { try StoredSigningIdentity.stored(in: $0) }.map(Self.current)
    }

    /// Puts an admin's identity in place of the stored one, with its audit entry (fingerprints,
    /// never the key) in the same transaction.
    func replace(with identity: SigningIdentity, by actor: Actor) async throws {
        let time = now()
        try await database.write { connection in
            // The entry names the identity replaced: no other replacement may come in between.
            try connection.lock(StoredSigningIdentity.lockName)
            let previous = try StoredSigningIdentity.stored(in: connection)
                .map { row in (try? Self.current(row).identity.sha256Fingerprint).map { "SHA-256 \($0)" } ?? "an unreadable identity" }
            try StoredSigningIdentity.replace(with: identity, origin: .uploaded, by: actor, at: time, in: connection)
            try connection.audit(.signingReplaced, subject: identity.subject, by: actor,
                                 before: previous, after: "SHA-256 \(identity.sha256Fingerprint)", at: time)
        }
    }

    /// At start, before any request: a console upgraded from keeping its identity in files takes
    /// them into the database while it has none, so it goes on signing with the same certificate
    /// whichever instance signs first. Files that disagree with the stored identity are reported
    /// and left alone; the files are never changed.
    func adoptFiles(logger: Logger) async throws {
        let files: SigningIdentity?
        do {
            files = try SigningIdentity.load(fromDirectory: filesDirectory)
        } catch {
            logger.warning("The signing files cannot be read; signing fails until they are mended or an admin uploads an identity: \(error.description)",
                           metadata: ["directory": "\(filesDirectory)"])
            return
        }
        guard let files else { return }
        let (current, adopted) = try await storeIfAbsent(files, origin: .adopted)
        if adopted {
            logger.info("Took the signing certificate \(files.subject) (SHA-256 \(files.sha256Fingerprint)) into the database; the files are left in place",
                        metadata: ["directory": "\(filesDirectory)"])
        } else if current.identity.sha256Fingerprint != files.sha256Fingerprint {
            logger.warning("""
                The signing files (SHA-256 \(files.sha256Fingerprint)) are not the database's signing identity \
                (SHA-256 \(current.identity.sha256Fingerprint)); the database's signs profiles
                """, metadata: ["directory": "\(filesDirectory)"])
        }
    }

    /// Stores `identity` unless one is stored already; answers the stored one — this, or the one
    /// another console stored first — and whether it is this one.
    private func storeIfAbsent(_ identity: SigningIdentity, origin: StoredSigningIdentity.Origin) async throws -> (current: Current, stored: Bool) {
        let time = now()
        let (row, stored) = try await database.write { connection in
            // After a replacement under way, never before it: its audit entry names what it replaced.
            try connection.lock(StoredSigningIdentity.lockName)
            let stored = try StoredSigningIdentity.storeIfAbsent(identity, origin: origin, by: .system, at: time, in: connection)
            if stored {
                try connection.audit(origin == .adopted ? .signingAdopted : .signingGenerated, subject: identity.subject, by: .system,
                                     after: "SHA-256 \(identity.sha256Fingerprint)", at: time)
            }
            return (try StoredSigningIdentity.stored(in: connection), stored)
        }
        guard let row else { throw StorageError.notFound(table: StoredSigningIdentity.tableName) }
        return (try Self.current(row), stored)
    }

    private static func current(_ row: StoredSigningIdentity) throws -> Current {
        Current(identity: try SigningIdentity(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM),
                origin: row.origin, setBy: row.setBy, setAt: row.setAt)
    }
}
