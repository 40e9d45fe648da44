import Domain
import Foundation
import Storage

/// A simulated device's remembered state, one row per device.
struct SimulatorStateRecord: Record {
    static let tableName = "simulator_states"

    var id: RecordID<SimulatorStateRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    var state: SimulatedDevice
    /// The tag of the effective policy the device applied last; a different one means sync.
    var appliedTag: String
    /// Profile id → "Name vN" of each profile the device has installed, to tell installs,
    /// updates and removals apart.
    var installedProfiles: [String: String]
    /// Counts every change, so a page can tell whether what it shows is current.
    var revision: Int
    var updatedAt: Date
    /// The lock's `DeviceLock.code`, nil when unlocked: a copy of what `state` says, for the
    /// device list's lock filter.
    var lockMode: String?
}

struct SimulatorEventRecord: Record {
    static let tableName = "simulator_events"

    var id: RecordID<SimulatorEventRecord> = .unsaved
    var deviceID: RecordID<DeviceRecord>
    var deviceTime: Date
    var recordedAt: Date
    var action: String
    var rule: String
    var result: SimulatorEvent.Result
    var message: String
}
