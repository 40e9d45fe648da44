import Domain
import Foundation
import Storage

/// A profile the console made from an effective policy, signed: kept once per content, so
/// every device of a group installs the same bytes and a hundred thousand installs store one.
struct MDMProfileDocumentRecord: Record {
    static let tableName = "mdm_profile_documents"

    var id: RecordID<MDMProfileDocumentRecord> = .unsaved
    /// SHA-256 of the unsigned profile: the name of its content.
    var digest: String
    var identifier: String
    var displayName: String
    var signed: Data
    var createdAt: Date
}

/// One of the console's profiles on one real device: the content the device acknowledged,
/// the command under way, and why it is not there when it is not.
struct MDMDeviceProfileRecord: Record, Equatable {
    static let tableName = "mdm_device_profiles"

    var id: RecordID<MDMDeviceProfileRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    var identifier: String
    /// What the device said it installed; nil while it holds none of this profile.
    var installedDigest: String?
    var installedAt: Date?
    /// The content on its way (`removal` for a RemoveProfile), and the command carrying it.
    var sendingDigest: String?
    var commandUUID: String?
    /// Failed installs of `failedDigest` in a row: the next try waits until `retryAfter`.
    var failures: Int = 0
    var failedDigest: String?
    var retryAfter: Date?
    var lastError: String?
    /// Why the policy's payload is not sent to this device (not supervised, the app missing, a
    /// conflict); nil when nothing is held back.
    var heldBack: String?
    /// For an app install: when the device's own list first showed the app installed after the
    /// device accepted the install; nil while it is still under way.
    var listedAt: Date?

    /// `sendingDigest` of a removal.
    static let removal = ""

    init(deviceID: RecordID<DeviceRecord>, identifier: String) {
        self.deviceID = deviceID
        self.identifier = identifier
    }
}
