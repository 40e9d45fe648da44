import Domain
import Foundation
import Storage

/// What `/api/v1/apps`, `/groups` and `/devices` answer.
struct AppAnswer: APIAnswer, NamedSchema {
    static let schemaName = "App"
    let id: RecordID<AppRecord>
    let name: String
    let bundleID: String
    let isManaged: Bool
    let isSDKBuilt: Bool
    let hasAssessmentEntitlement: Bool
    @Nullable var role: AppRole?
    @Nullable var deliveryMethod: AppDeliveryMethod?
    @Nullable var storeID: Int?
    @Nullable var manifestURL: String?
    let removeWithManagement: Bool
    let preventBackup: Bool

    init(_ app: AppRecord) {
        id = app.id
        name = app.name
        bundleID = app.bundleID
        isManaged = app.isManaged
        isSDKBuilt = app.isSDKBuilt
        hasAssessmentEntitlement = app.hasAssessmentEntitlement
        role = app.role
        deliveryMethod = app.deliveryMethod
        storeID = app.storeID
        manifestURL = app.manifestURL
        removeWithManagement = app.removeWithManagement
        preventBackup = app.preventBackup
    }
}

struct AppList: APIAnswer {
    let apps: [AppAnswer]
}

struct GroupAnswer: APIAnswer, NamedSchema {
    static let schemaName = "Group"
    let id: RecordID<DeviceGroupRecord>
    let name: String
    /// The group it is inside; null at the top.
    @Nullable var parentID: RecordID<DeviceGroupRecord>?

    init(_ group: DeviceGroupRecord) {
        id = group.id
        name = group.name
        parentID = group.parentID
    }
}

struct GroupList: APIAnswer {
    let groups: [GroupAnswer]
}

/// A device as `POST /api/v1/devices` answers it.
struct CreatedDevice: APIAnswer {
    let id: RecordID<DeviceRecord>
    let name: String
    let udid: String
}

/// A device as `PUT /api/v1/devices/{id}` answers it.
struct UpdatedDevice: APIAnswer {
    let id: RecordID<DeviceRecord>
    let name: String
    let udid: String
    @Nullable var groupID: RecordID<DeviceGroupRecord>?
    let installedApps: [String]
}
