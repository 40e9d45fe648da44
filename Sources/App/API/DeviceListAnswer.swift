import Domain
import Foundation
import Storage

/// A page of `GET /api/v1/devices`: the devices, how many match in all, and the next page.
struct DeviceListAnswer: APIAnswer, DocumentedFields {
    let total: Int
    let devices: [ListedDevice]
    let next: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case total, devices, next
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .total: JSONSchema(description: "Devices matching the filters, on every page")
        case .next: JSONSchema(description: "The next page's address; absent on the last page")
        case .devices: nil
        }
    }
}

struct ListedDevice: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "ListedDevice"
    let id: RecordID<DeviceRecord>
    let name: String
    let model: DeviceModel
    let osVersion: String
    let serialNumber: String
    let udid: String
    let isSupervised: Bool
    let owner: String
    @Nullable var groupID: RecordID<DeviceGroupRecord>?
    let installedApps: [String]
    @Nullable var lastCheckInAt: Date?
    @Nullable var lock: Lock?
    @Nullable var singleAppModeApp: String?
    let conflictApps: [String]
    @Nullable var compliance: ComplianceState?
    /// A real device (enrolled over MDM at some time) rather than one the simulator plays.
    let real: Bool
    @Nullable var enrollment: MDMDeviceRecord.State?

    struct Lock: Codable, Sendable {
        let mode: String
        @Nullable var app: String?
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, name, model, osVersion, serialNumber, udid, isSupervised, owner, groupID, installedApps, lastCheckInAt, lock
        case singleAppModeApp, conflictApps, compliance, real, enrollment
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .lock: JSONSchema(description: "A simulated device's lock: its mode (\(DeviceListFilter.LockState.allCases.map(\.rawValue).joined(separator: ", "))) and app; null when not locked")
        case .singleAppModeApp: JSONSchema(description: "The app Single App Mode holds the device's group in, from its effective policy")
        case .conflictApps: JSONSchema(description: "Apps of a Single App Mode conflict in its group's policy")
        case .compliance: JSONSchema(description: "What the SDK apps last reported doing; null before any report")
        case .real: JSONSchema(description: "True for a real device that enrolled over MDM; false for a device the simulator plays or one entered by hand")
        case .enrollment: JSONSchema(description: "A real device's MDM enrollment: enrolled, or unenrolled after it removed the profile; null for other devices")
        default: nil
        }
    }

    init(_ listed: CatalogReader.ListedDevice, policy: CatalogReader.GroupPolicySummary?) {
        let device = listed.device
        id = device.id
        name = device.name
        model = device.model
        osVersion = device.osVersion
        serialNumber = device.serialNumber
        udid = device.udid
        isSupervised = device.isSupervised
        owner = device.owner
        groupID = device.groupID
        installedApps = device.installedApps
        lastCheckInAt = device.lastCheckInAt
        lock = listed.lockMode.map { Lock(mode: $0, app: listed.lockApp) }
        singleAppModeApp = policy?.singleAppModeApp
        conflictApps = policy?.conflictApps ?? []
        compliance = listed.compliance
        real = listed.mdmState != nil
        enrollment = listed.mdmState
    }
}
