import Foundation
import Signing
import Storage

/// The MDM push certificate as the database keeps it: one row every console on the database
/// reads, so a certificate uploaded through one console pushes from all of them.
struct StoredPushCertificate: Record {
    static let tableName = "mdm_push_certificate"
    static let onlyID = RecordID<StoredPushCertificate>(1)

    var id: RecordID<StoredPushCertificate> = .unsaved
    var certificatePEM: String
    var privateKeyPEM: String
    var topic: String
    var notAfter: Date
    var fingerprint: String
    var setBy: String
    var setAt: Date

    static let lockName = "mdm_push_certificate"
}

/// Keeps the push certificate an admin uploads. A renewal must keep the topic — the topic is
/// in every enrolled device's profile, and a device pushed under another topic never wakes —
/// so a certificate with another topic replaces the stored one only when the admin confirms
/// that every enrolled device will have to enroll again.
struct PushCertificateStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    /// How long before its end the console warns that the certificate must be renewed.
    static let renewalWarning: TimeInterval = 30 * 86_400

    enum Refusal: Error, Equatable {
        case topicChanged(stored: String, uploaded: String, enrolledDevices: Int)

        /// What changing the topic costs, in words.
        var cost: String {
            guard case .topicChanged(_, _, let enrolled) = self else { return "" }
            return switch enrolled {
            case 0: "No device is enrolled yet, so none would be lost."
            case 1: "The one enrolled device will have to enroll again."
            default: "All \(enrolled) enrolled devices will have to enroll again."
            }
        }
    }

    func stored() async throws -> StoredPushCertificate? {
        try await database.read { try $0.find(StoredPushCertificate.self, id: StoredPushCertificate.onlyID) }
    }

    /// Stores `certificate` in place of the one stored, with its audit entry (topic and
    /// fingerprints, never the key) in the same transaction.
    func set(_ certificate: PushCertificate, confirmingTopicChange: Bool, by actor: Actor) async throws -> StoredPushCertificate {
        let time = now()
        return try await database.write { connection in
            try connection.lock(StoredPushCertificate.lockName)
            let previous = try connection.find(StoredPushCertificate.self, id: StoredPushCertificate.onlyID)
            if let previous, previous.topic != certificate.topic, !confirmingTopicChange {
                let enrolled = try connection.count(MDMDeviceRecord.query().filter("state", .equal, MDMDeviceRecord.State.enrolled.rawValue))
                throw Refusal.topicChanged(stored: previous.topic, uploaded: certificate.topic, enrolledDevices: enrolled)
            }
            _ = try connection.execute("""
                INSERT INTO mdm_push_certificate (id, certificatePEM, privateKeyPEM, topic, notAfter, fingerprint, setBy, setAt)
                VALUES (\(StoredPushCertificate.onlyID), \(certificate.certificatePEM), \(certificate.privateKeyPEM), \(certificate.topic),
                        \(certificate.notAfter), \(certificate.sha256Fingerprint), \(actor.email), \(time))
                ON CONFLICT (id) DO UPDATE SET certificatePEM = excluded.certificatePEM, privateKeyPEM = excluded.privateKeyPEM,
                    topic = excluded.topic, notAfter = excluded.notAfter, fingerprint = excluded.fingerprint,
                    setBy = excluded.setBy, setAt = excluded.setAt
                """)
            try connection.audit(.pushCertificateSet, subject: certificate.topic, by: actor,
                                 before: previous.map { "\($0.topic), SHA-256 \($0.fingerprint)" },
                                 after: "\(certificate.topic), SHA-256 \(certificate.sha256Fingerprint), valid to \(certificate.notAfter.formatted(.iso8601.year().month().day()))",
                                 at: time)
            return try connection.require(StoredPushCertificate.self, id: StoredPushCertificate.onlyID)
        }
    }
}
