import Domain
import Foundation
import Storage

/// The last status beacon a device's SDK app sent.
struct DeviceBeaconRecord: Record {
    static let tableName = "device_beacons"

    var id: RecordID<DeviceBeaconRecord>?
    var deviceID: RecordID<DeviceRecord>
    var sentAt: Date
    var compliance: ComplianceState
    var beacon: StatusBeacon
}

extension Connection {
    /// Keeps `beacon` as the device's last one.
    func recordBeacon(_ beacon: StatusBeacon, from deviceID: RecordID<DeviceRecord>, at time: Date) throws {
        if var existing = try fetchOne(DeviceBeaconRecord.query().filter("deviceID", .equal, deviceID)) {
            existing.sentAt = time
            existing.compliance = beacon.deviceCompliance
            existing.beacon = beacon
            try update(existing)
        } else {
            _ = try insert(DeviceBeaconRecord(id: nil, deviceID: deviceID, sentAt: time, compliance: beacon.deviceCompliance, beacon: beacon))
        }
    }
}
