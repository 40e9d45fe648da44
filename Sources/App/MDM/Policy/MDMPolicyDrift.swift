import Domain
import Foundation
import Storage

/// What a device's own ProfileList says against what the console believes it holds: a
/// profile of the console's that is missing, or at a version the console did not send last,
/// is taken as not held, and the device is marked due so the next run installs it again. A
/// managed profile the console did not send is only shown (the device page lists it); nothing
/// removes it. The list is asked for daily with the inventory, and after each change of the
/// console's profiles (`MDMPolicyApply` queues it behind them).
enum MDMPolicyDrift {
    /// `installedDigest` of a profile of the console's at a version it cannot name (sent by an
    /// earlier console, say): never what a device should carry, so it is replaced or removed.
    static let unknownVersion = "unknown"

    /// Devices that do not hold what their policy says, or cannot: an install or removal on its
    /// way, one refused, a payload held back (Single App Mode on an unsupervised device), or an
    /// app the device accepted but has not listed yet. The terms are those of the partial index
    /// `mdm_device_profiles_out_of_step`, spelled as it spells them, so the count reads only
    /// the rows that are out of step.
    static let outOfStepDevices = SQL(verbatim: """
        SELECT p.deviceID FROM mdm_device_profiles p JOIN mdm_devices m ON m.deviceID = p.deviceID
        WHERE m.state = 'enrolled' AND (p.sendingDigest IS NOT NULL OR p.failedDigest IS NOT NULL OR p.heldBack IS NOT NULL
            OR (p.identifier LIKE 'com.payloadconsole.app-install.%' AND p.installedDigest IS NOT NULL AND p.listedAt IS NULL))
        """)

    /// Runs in the transaction that recorded the device's ProfileList.
    static func reconcile(_ listed: [MDMInventory.Profile], deviceID: RecordID<DeviceRecord>, connection: Connection) throws {
        var changed = false
        // Only profiles are listed: an app's configuration slot is not the list's to judge.
        for var row in try connection.fetch(MDMDeviceProfileRecord.query().filter("deviceID", .equal, deviceID))
        where DevicePolicyProfiles.identifiers.contains(row.identifier) {
            let held = listed.first { $0.identifier == row.identifier }.map { profile in
                [row.installedDigest, row.sendingDigest, row.failedDigest].compactMap { $0 }
                    .first { MDMPolicyPlan.stableUUID($0) == profile.uuid } ?? unknownVersion
            }
            guard held != row.installedDigest else { continue }
            row.installedDigest = held
            try connection.update(row)
            changed = true
        }
        if changed { try MDMPolicyReports.markDue([deviceID], connection: connection) }
    }
}
