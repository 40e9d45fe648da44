import Domain
import Foundation
import Storage

/// A one-time enrollment link: who made it, for which group, until when, and whether its
/// SCEP challenge was used. The link and the challenge are kept as hashes only.
struct MDMEnrollmentLinkRecord: Record {
    static let tableName = "mdm_enrollment_links"

    var id: RecordID<MDMEnrollmentLinkRecord> = .unsaved
    var linkHash: String
    var challengeHash: String
    var groupID: RecordID<DeviceGroupRecord>
    var createdBy: String
    var createdAt: Date
    var expiresAt: Date
    var challengeUsedAt: Date?
    /// Set when an admin ended the link early (its `expiresAt` is then that moment too).
    var revokedAt: Date?
}

/// A certificate the console's authority issued through SCEP, and what it identifies: the
/// enrollment it came from, then the device that authenticated with it.
struct MDMCertificateRecord: Record {
    static let tableName = "mdm_certificates"

    var id: RecordID<MDMCertificateRecord> = .unsaved
    var serial: String
    var fingerprint: String
    var linkID: RecordID<MDMEnrollmentLinkRecord>?
    /// The group the device joins: the link's when it was issued.
    var groupID: RecordID<DeviceGroupRecord>?
    /// Bound at Authenticate; nil until then.
    var deviceID: RecordID<DeviceRecord>?
    var subject: String
    var issuedAt: Date
    var notAfter: Date
    var revokedAt: Date?
}

/// A device enrolled in MDM (or that was): its channel to the console beside its record.
struct MDMDeviceRecord: Record {
    static let tableName = "mdm_devices"

    enum State: String, Codable, Sendable, CaseIterable {
        case enrolled, unenrolled
    }

    var id: RecordID<MDMDeviceRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    var udid: String
    var state: State
    var topic: String
    /// The certificate it signs with now; earlier ones are revoked.
    var certificateSerial: String?
    var pushToken: Data?
    var pushMagic: String?
    /// Kept from the TokenUpdate that carried it: ClearPasscode needs it.
    var unlockToken: Data?
    /// When Apple's push service said the token no longer reaches the device, and why.
    var pushTokenDeadAt: Date?
    var pushTokenDeadReason: String?
    var enrolledAt: Date
    var tokenUpdatedAt: Date?
    var checkedOutAt: Date?
    var lastSeenAt: Date?
    /// The commands the device answered NotNow since it last reported anything else: not
    /// offered again until then.
    var notNowRun: [String]
    /// What the inventory commands last reported.
    var inventory: MDMInventory? = nil
    /// When an admin let the device leave management (`MDMRelease`): its policy is no longer
    /// followed; enrolling again clears it.
    var releaseRequestedAt: Date? = nil
}
extension MDMDeviceRecord.State: DocumentedEnum {}
