import Foundation
import Signing
import Storage

/// The console's one signing identity as the database keeps it (migration 22), shared by every
/// console on that database. The private key leaves this row only for `SigningService`, which
/// signs with it; pages and the API are given the certificate and these facts, never the key.
struct StoredSigningIdentity: Record {
    static let tableName = "signing_identity"
    /// The table's only row.
    static let onlyID = RecordID<StoredSigningIdentity>(1)

    /// How the identity came to be: made by the console at its first signature, taken over from
    /// the files an older console kept in its data directory, or uploaded by an admin.
    enum Origin: String, Codable, Sendable {
        case generated, adopted, uploaded
    }

    var id: RecordID<StoredSigningIdentity> = .unsaved
    var certificatePEM: String
    var privateKeyPEM: String
    /// How many times the identity was set: raised by every replacement.
    var revision: Int
    var origin: Origin
    var setBy: String
    var setAt: Date

    /// Taken by every write of the row, so a replacement's audit entry names what it replaced.
    static let lockName = "signing_identity"

    static func stored(in connection: Connection) throws -> StoredSigningIdentity? {
        try connection.find(StoredSigningIdentity.self, id: onlyID)
    }

    /// Stores `identity` unless one is stored already, in one statement, so consoles doing this
    /// at once end with exactly one; says whether this one was stored.
    static func storeIfAbsent(_ identity: SigningIdentity, origin: Origin, by actor: Actor, at time: Date, in connection: Connection) throws -> Bool {
        try connection.execute("""
            INSERT INTO signing_identity (id, certificatePEM, privateKeyPEM, revision, origin, setBy, setAt)
            VALUES (\(onlyID), \(identity.certificatePEM), \(identity.privateKeyPEM), 1, \(origin.rawValue), \(actor.email), \(time))
            ON CONFLICT (id) DO NOTHING
            """) == 1
    }

    /// Stores `identity` in place of the one stored (or as the first).
    static func replace(with identity: SigningIdentity, origin: Origin, by actor: Actor, at time: Date, in connection: Connection) throws {
        _ = try connection.execute("""
            INSERT INTO signing_identity (id, certificatePEM, privateKeyPEM, revision, origin, setBy, setAt)
            VALUES (\(onlyID), \(identity.certificatePEM), \(identity.privateKeyPEM), 1, \(origin.rawValue), \(actor.email), \(time))
            ON CONFLICT (id) DO UPDATE SET certificatePEM = excluded.certificatePEM, privateKeyPEM = excluded.privateKeyPEM,
                revision = signing_identity.revision + 1, origin = excluded.origin, setBy = excluded.setBy, setAt = excluded.setAt
            """)
    }
}
