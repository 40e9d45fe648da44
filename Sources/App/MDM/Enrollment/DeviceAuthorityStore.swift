import Foundation
import Signing
import Storage
import Synchronization

/// The console's device certificate authority as the database keeps it: one row shared by
/// every console on the database. The key leaves the row only for SCEP (which issues and
/// opens requests with it); pages and the API are given the certificate's facts.
struct StoredDeviceAuthority: Record {
    static let tableName = "mdm_authority"
    static let onlyID = RecordID<StoredDeviceAuthority>(1)

    enum Origin: String, Codable, Sendable {
        case generated, uploaded
    }

    var id: RecordID<StoredDeviceAuthority> = .unsaved
    var certificatePEM: String
    var privateKeyPEM: String
    var origin: Origin
    var setBy: String
    var setAt: Date
}

/// Reads the device CA, making one the first time it is needed (the first enrollment link, or
/// a device asking SCEP for the CA). Parsing the PEM is kept from one request to the next
/// while the stored certificate is the same, so checking a device's signature costs one
/// small read, not a key parse.
final class DeviceAuthorityStore: Sendable {
    private let database: Database
    private let now: @Sendable () -> Date
    private let parsed = Mutex<CertificateAuthority?>(nil)

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
    }

    /// The stored authority, nil while none was made.
    func stored() async throws -> CertificateAuthority? {
        guard let row = try await database.read({ try $0.find(StoredDeviceAuthority.self, id: StoredDeviceAuthority.onlyID) }) else { return nil }
        return try authority(of: row)
    }

    /// The stored authority, or a new one stored now (consoles doing this at once end with the
    /// one stored first).
    func current() async throws -> CertificateAuthority {
        if let stored = try await stored() { return stored }
        let made = try CertificateAuthority.generate(commonName: "Payload Console Device CA", organisation: "Payload Console", now: now())
        let time = now()
        let row = try await database.write { connection in
            let inserted = try connection.execute("""
                INSERT INTO mdm_authority (id, certificatePEM, privateKeyPEM, origin, setBy, setAt)
                VALUES (\(StoredDeviceAuthority.onlyID), \(made.certificatePEM), \(made.privateKeyPEM), \(StoredDeviceAuthority.Origin.generated.rawValue), \(Actor.system.email), \(time))
                ON CONFLICT (id) DO NOTHING
                """) == 1
            if inserted {
                try connection.audit(.deviceAuthorityGenerated, subject: made.subject, by: .system, after: "SHA-256 \(made.sha256Fingerprint)", at: time)
            }
            return try connection.require(StoredDeviceAuthority.self, id: StoredDeviceAuthority.onlyID)
        }
        return try authority(of: row)
    }

    private func authority(of row: StoredDeviceAuthority) throws -> CertificateAuthority {
        if let cached = parsed.withLock({ $0 }), cached.certificatePEM == row.certificatePEM, cached.privateKeyPEM == row.privateKeyPEM {
            return cached
        }
        let authority = try CertificateAuthority(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM, now: now())
        parsed.withLock { $0 = authority }
        return authority
    }
}
