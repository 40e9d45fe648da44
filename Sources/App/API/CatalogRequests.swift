import Domain
import Storage

/// `POST /api/v1/apps` and `PUT /api/v1/apps/{id}`; flags left out take the page's defaults.
struct AppBody: APIRequestBody {
    let name: String
    let bundleID: String
    let isManaged: Bool?
    let isSDKBuilt: Bool?
    let hasAssessmentEntitlement: Bool?
    let iconColor: String?
    let role: AppRole?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, bundleID, isManaged, isSDKBuilt, hasAssessmentEntitlement, iconColor, role
    }

    /// The draft the page would build; `CatalogService` validates it the same way.
    var draft: CatalogAppDraft {
        CatalogAppDraft(name: name, bundleID: bundleID, isManaged: isManaged ?? true, isSDKBuilt: isSDKBuilt ?? false,
                        hasAssessmentEntitlement: hasAssessmentEntitlement ?? false, iconColor: iconColor ?? "", role: role)
    }
}

/// `POST /api/v1/groups` and `PUT /api/v1/groups/{id}`: a group without `parentID` is at the top.
struct GroupBody: APIRequestBody {
    let name: String
    let parentID: RecordID<DeviceGroupRecord>?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, parentID
    }

    var draft: GroupDraft { GroupDraft(name: name) }
}

/// `POST /api/v1/devices` and `PUT /api/v1/devices/{id}`. PUT replaces the device: a field
/// left out takes its default (no group, no owner, no apps, not supervised), as on create;
/// `model` is always required.
struct DeviceBody: APIRequestBody {
    let name: String
    let model: String
    let osVersion: String
    let serialNumber: String
    let udid: String
    let isSupervised: Bool?
    let owner: String?
    let groupID: RecordID<DeviceGroupRecord>?
    let installedApps: [String]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, model, osVersion, serialNumber, udid, isSupervised, owner, groupID, installedApps
    }

    func draft() throws -> DeviceDraft {
        guard let parsedModel = DeviceModel(rawValue: model) else {
            throw APIRequest.invalid("model", "model must be one of: \(DeviceModel.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        return DeviceDraft(name: name, model: parsedModel, osVersion: osVersion, serialNumber: serialNumber, udid: udid,
                           isSupervised: isSupervised ?? false, owner: owner ?? "", installedApps: installedApps ?? [])
    }
}

/// `PUT /api/v1/devices/{id}/group`: `groupID` must be sent, `null` for no group.
struct MoveDeviceBody: APIRequestBody {
    let groupID: RecordID<DeviceGroupRecord>?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case groupID
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard container.contains(.groupID) else {
            throw DecodingError.keyNotFound(CodingKeys.groupID, .init(codingPath: [], debugDescription: "groupID is required; send null for no group."))
        }
        groupID = try container.decodeIfPresent(RecordID<DeviceGroupRecord>.self, forKey: .groupID)
    }
}
