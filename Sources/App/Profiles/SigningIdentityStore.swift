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

    var id: RecordID<StoredSigningIdentity>?
    var certificatePEM: String
    var privateKeyPEM: String
    /// Raised by every replacement, so a console sees in one small read whether the identity it
    /// holds in memory is still the one stored.
    var revision: Int
    var origin: Origin
    var setBy: String
    var setAt: Date

    /// The stored identity's revision, nil while none is stored.
    static func revision(in connection: Connection) throws -> Int? {
        try connection.scalar("SELECT revision FROM signing_identity WHERE id = \(onlyID)", as: Int.self)
    }

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

    /// Stores `identity` in place of the one stored (or as the first); returns its revision.
    static func replace(with identity: SigningIdentity, origin: Origin, by actor: Actor, at time: Date, in connection: Connection) throws -> Int {
        let revision = try connection.scalar("""
            INSERT INTO signing_identity (id, certificatePEM, privateKeyPEM, revision, origin, setBy, setAt)
            VALUES (\(onlyID), \(identity.certificatePEM), \(identity.privateKeyPEM), 1, \(origin.rawValue), \(actor.email), \(time))
            ON CONFLICT (id) DO UPDATE SET certificatePEM = excluded.certificatePEM, privateKeyPEM = excluded.privateKeyPEM,
                revision = signing_identity.revision + 1, origin = excluded.origin, setBy = excluded.setBy, setAt = excluded.setAt
            RETURNING revision
            """, as: Int.self)
        guard let revision else { throw StorageError.invalidQuery("replacing the signing identity returned no revision") }
        return revision
    }
}
