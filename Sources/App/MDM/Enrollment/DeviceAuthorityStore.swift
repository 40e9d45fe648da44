import Domain
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
/// a device asking SCEP for the CA). The parsed CA is kept in memory until a write to its row
/// commits (here, or on PostgreSQL another console's), so checking a device's signature reads
/// nothing.
final class DeviceAuthorityStore: Sendable {
    private let database: Database
    private let now: @Sendable () -> Date
    private let parsed = Mutex<CertificateAuthority?>(nil)

    init(database: Database, now: @escaping @Sendable () -> Date) {
        self.database = database
        self.now = now
        database.onCommit(tables: [StoredDeviceAuthority.tableName]) { [weak self] _ in self?.parsed.withLock { $0 = nil } }
    }

    /// The stored authority, nil while none was made.
    func stored() async throws -> CertificateAuthority? {
        if let kept = parsed.withLock({ $0 }) { return kept }
        let stamp = database.commitCount
        guard let row = try await database.read({ try $0.find(StoredDeviceAuthority.self, id: StoredDeviceAuthority.onlyID) }) else { return nil }
        return try authority(of: row, readAt: stamp)
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
        return try authority(of: row, readAt: nil)
    }

    /// Why an uploaded CA was not put in place.
    enum Refusal: Error, Equatable {
        /// Devices enrolled with certificates from the stored CA would be refused from then on.
        case devicesEnrolled(Int)
    }

    /// Puts an admin's own CA in place of the stored one. Every enrolled device signs with a
    /// certificate the stored CA issued and would be refused afterwards, so while any is
    /// enrolled this needs the admin's confirmation.
    func replace(with uploaded: CertificateAuthority, confirmingDevicesLost: Bool, by actor: Actor) async throws {
        let time = now()
        try await database.write { connection in
            let enrolled = try connection.count(MDMDeviceRecord.query().filter("state", .equal, MDMDeviceRecord.State.enrolled.rawValue))
            if enrolled > 0, !confirmingDevicesLost { throw Refusal.devicesEnrolled(enrolled) }
            let previous = try connection.find(StoredDeviceAuthority.self, id: StoredDeviceAuthority.onlyID)
            _ = try connection.execute("""
                INSERT INTO mdm_authority (id, certificatePEM, privateKeyPEM, origin, setBy, setAt)
                VALUES (\(StoredDeviceAuthority.onlyID), \(uploaded.certificatePEM), \(uploaded.privateKeyPEM), \(StoredDeviceAuthority.Origin.uploaded.rawValue), \(actor.email), \(time))
                ON CONFLICT (id) DO UPDATE SET certificatePEM = excluded.certificatePEM, privateKeyPEM = excluded.privateKeyPEM,
                    origin = excluded.origin, setBy = excluded.setBy, setAt = excluded.setAt
                """)
            let before = previous.map { row in
                (try? CertificateAuthority(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM, now: time))
                    .map { "SHA-256 \($0.sha256Fingerprint)" } ?? "a CA no longer valid"
            }
            try connection.audit(.deviceAuthorityUploaded, subject: uploaded.subject, by: actor,
                                 before: before, after: "SHA-256 \(uploaded.sha256Fingerprint)" + (enrolled > 0 ? "; \(Counted.phrase(enrolled, "enrolled device")) must enroll again" : ""), at: time)
        }
    }

    /// The row's CA, kept when it was read with no write committed since `stamp` (a write
    /// committed meanwhile may have changed it; the next read sees).
    private func authority(of row: StoredDeviceAuthority, readAt stamp: Int?) throws -> CertificateAuthority {
        let authority = try CertificateAuthority(certificatePEM: row.certificatePEM, privateKeyPEM: row.privateKeyPEM, now: now())
        if let stamp {
            parsed.withLock { parsed in if database.commitCount == stamp { parsed = authority } }
        }
        return authority
    }
}
