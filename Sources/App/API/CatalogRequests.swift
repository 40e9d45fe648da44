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
    /// How real devices get the app over MDM; left out, the console does not install it.
    let deliveryMethod: AppDeliveryMethod?
    let storeID: Int?
    let manifestURL: String?
    let removeWithManagement: Bool?
    let preventBackup: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, bundleID, isManaged, isSDKBuilt, hasAssessmentEntitlement, iconColor, role
        case deliveryMethod, storeID, manifestURL, removeWithManagement, preventBackup
    }

    /// The draft the page would build; `CatalogService` validates it the same way.
    var draft: CatalogAppDraft {
        CatalogAppDraft(name: name, bundleID: bundleID, isManaged: isManaged ?? true, isSDKBuilt: isSDKBuilt ?? false,
                        hasAssessmentEntitlement: hasAssessmentEntitlement ?? false, iconColor: iconColor ?? "", role: role,
                        deliveryMethod: deliveryMethod, storeID: storeID.map(String.init) ?? "", manifestURL: manifestURL ?? "",
                        removeWithManagement: removeWithManagement ?? false, preventBackup: preventBackup ?? false)
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
        // Required and nullable: the one field says where the device goes, and null is a place.
        groupID = try container.decode(Nullable<RecordID<DeviceGroupRecord>>.self, forKey: .groupID).wrappedValue
    }
}

// What the document says of each field beyond its type: the rules `CatalogAppDraft`,
// `GroupDraft` and `DeviceDraft` check, as patterns a client can check first.

extension AppBody: NamedSchema, DocumentedFields {
    static let schemaName = "AppInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        return switch field {
        case .name: D.singleLine(1...80)
        case .bundleID: D.bundleID
        case .isManaged: JSONSchema(defaultValue: .bool(true))
        case .isSDKBuilt, .hasAssessmentEntitlement: JSONSchema(defaultValue: .bool(false))
        case .iconColor: D.trimmed("(?:#[0-9A-Fa-f]{6})?", description: "#rrggbb, or empty for a colour from the name").refined(by: JSONSchema(defaultValue: .string("")))
        case .role: JSONSchema(description: "browser or mail: the managed browser or mail app DLP keeps links in (a managed app only); null or absent for none")
        case .deliveryMethod:
            JSONSchema(description: "How real devices get the app over MDM: appStore (with storeID), inHouse (with manifestURL) or takeOver "
                + "(the copy already on the device becomes managed); a managed app only; null or absent: the console does not install it")
        case .storeID: JSONSchema(description: "The App Store ID, for appStore only", minimum: 1, maximum: AppDelivery.largestStoreID)
        case .manifestURL:
            JSONSchema(description: "The https:// address of the app's manifest, for inHouse only", maxLength: AppDelivery.manifestURLMaximumLength)
        case .removeWithManagement, .preventBackup:
            JSONSchema(description: "What happens to the app when management ends (removed with its data) or to its backups; an app with a deliveryMethod only",
                       defaultValue: .bool(false))
        }
    }
}

extension GroupBody: NamedSchema, DocumentedFields {
    static let schemaName = "GroupInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .name: OpenAPIDocument.singleLine(1...GroupDraft.maximumNameLength)
        case .parentID: JSONSchema(description: "The group it goes inside; absent or null: at the top")
        }
    }
}

extension DeviceBody: NamedSchema, DocumentedFields {
    static let schemaName = "DeviceInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        return switch field {
        case .name: D.singleLine(1...80)
        case .model: .names(of: DeviceModel.self)
        case .osVersion: D.trimmed(#"[0-9]{1,3}(?:\.[0-9]{1,3}){1,2}"#, description: "Such as 17.4 or 18.1.2")
        case .serialNumber: D.trimmed("[A-Za-z0-9]{8,14}", description: "8 to 14 letters and digits")
        case .udid: D.trimmed("(?:[0-9A-Fa-f]{40}|[0-9A-Fa-f]{8}-[0-9A-Fa-f]{16})", description: "40 hex digits, or 8 and 16 joined by a hyphen")
        case .isSupervised: JSONSchema(defaultValue: .bool(false))
        case .owner: D.singleLine(0...120).refined(by: JSONSchema(defaultValue: .string("")))
        case .groupID: nil
        case .installedApps: JSONSchema(defaultValue: .array([]), items: D.bundleID)
        }
    }
}

extension MoveDeviceBody: DocumentedFields {
    static func note(on field: CodingKeys) -> JSONSchema? {
        JSONSchema(description: "The group to move it to; null: no group")
    }
}
