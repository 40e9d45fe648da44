import Domain
import Foundation
import Storage

/// The last status beacon a device's SDK app sent.
struct DeviceBeaconRecord: Record {
    static let tableName = "device_beacons"

    var id: RecordID<DeviceBeaconRecord> = .unsaved
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
            _ = try insert(DeviceBeaconRecord(deviceID: deviceID, sentAt: time, compliance: beacon.deviceCompliance, beacon: beacon))
        }
    }
}

/// Beacons that real devices send through the device API; the simulator records its own in
/// the transaction of the step that sent them.
struct BeaconStore: Sendable {
    let database: Database
    let now: @Sendable () -> Date

    func record(_ body: BeaconBody, from deviceID: RecordID<DeviceRecord>) async throws -> StatusBeacon {
        let time = now()
        return try await database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: deviceID)
            let group = try device.groupID.flatMap { try connection.find(DeviceGroupRecord.self, id: $0)?.name }
            let beacon = body.beacon(deviceName: device.name, group: group, user: device.owner)
            try connection.recordBeacon(beacon, from: deviceID, at: time)
            return beacon
        }
    }
}
