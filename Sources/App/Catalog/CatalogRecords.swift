import Domain
import Foundation
import Storage

/// An app in the catalog.
package struct AppRecord: Record {
    package static let tableName = "apps"

    package var id: RecordID<AppRecord> = .unsaved
    var name: String
    var bundleID: String
    var isManaged: Bool
    var isSDKBuilt: Bool
    var hasAssessmentEntitlement: Bool
    var iconColor: String
    var createdAt: Date
    var role: AppRole? = nil
    /// How a real device gets the app (`AppDelivery`), with the values its method reads.
    var deliveryMethod: AppDeliveryMethod? = nil
    var storeID: Int? = nil
    var manifestURL: String? = nil
    var removeWithManagement = false
    var preventBackup = false

    package init(id: RecordID<AppRecord> = .unsaved, name: String, bundleID: String, isManaged: Bool, isSDKBuilt: Bool,
                 hasAssessmentEntitlement: Bool, iconColor: String, createdAt: Date, role: AppRole? = nil) {
        self.id = id
        self.name = name
        self.bundleID = bundleID
        self.isManaged = isManaged
        self.isSDKBuilt = isSDKBuilt
        self.hasAssessmentEntitlement = hasAssessmentEntitlement
        self.iconColor = iconColor
        self.createdAt = createdAt
        self.role = role
    }

    var draft: CatalogAppDraft {
        CatalogAppDraft(name: name, bundleID: bundleID, isManaged: isManaged, isSDKBuilt: isSDKBuilt,
                        hasAssessmentEntitlement: hasAssessmentEntitlement, iconColor: iconColor, role: role,
                        deliveryMethod: deliveryMethod, storeID: storeID.map(String.init) ?? "", manifestURL: manifestURL ?? "",
                        removeWithManagement: removeWithManagement, preventBackup: preventBackup)
    }

    /// The apps the catalog says how to install, by bundle ID: a few rows, read whole.
    static func deliveries(_ connection: Connection) throws -> [String: AppDelivery] {
        let apps = try connection.fetch(AppRecord.query().filter("deliveryMethod", .notEqual, String?.none))
        return Dictionary(apps.compactMap { app in app.delivery.map { (app.bundleID, $0) } }, uniquingKeysWith: { first, _ in first })
    }

    /// How a real device gets the app; nil when the console does not install it.
    var delivery: AppDelivery? {
        deliveryMethod.map { AppDelivery(method: $0, storeID: storeID, manifestURL: manifestURL,
                                         removeWithManagement: removeWithManagement, preventBackup: preventBackup) }
    }

    mutating func apply(_ draft: CatalogAppDraft) {
        let app = draft.normalised
        name = app.name
        bundleID = app.bundleID
        isManaged = app.isManaged
        isSDKBuilt = app.isSDKBuilt
        hasAssessmentEntitlement = app.hasAssessmentEntitlement
        iconColor = app.iconColor
        role = app.role
        let delivery = app.delivery
        deliveryMethod = delivery?.method
        storeID = delivery?.storeID
        manifestURL = delivery?.manifestURL
        removeWithManagement = delivery?.removeWithManagement ?? false
        preventBackup = delivery?.preventBackup ?? false
    }
}

extension AppRecord {
    private static func deliveryTrait(_ method: AppDeliveryMethod) -> String {
        switch method {
        case .appStore: "Installed from the App Store"
        case .inHouse: "Installed in-house"
        case .takeOver: "Taken over on the device"
        }
    }

    /// What the catalog says about the app, as its row and its audit entries list it.
    var traits: [String] {
        [isManaged ? "Managed" : "Unmanaged"] + (isSDKBuilt ? ["SDK"] : []) + (hasAssessmentEntitlement ? ["Assessment entitlement"] : [])
            + (role.map { [$0.displayName] } ?? []) + (deliveryMethod.map { [Self.deliveryTrait($0)] } ?? [])
    }
}

/// A device group; `parentID` makes the tree.
package struct DeviceGroupRecord: Record {
    package static let tableName = "device_groups"

    package var id: RecordID<DeviceGroupRecord> = .unsaved
    var name: String
    var parentID: RecordID<DeviceGroupRecord>?
    var createdAt: Date

    package init(id: RecordID<DeviceGroupRecord> = .unsaved, name: String, parentID: RecordID<DeviceGroupRecord>?, createdAt: Date) {
        self.id = id
        self.name = name
        self.parentID = parentID
        self.createdAt = createdAt
    }
}

extension GroupTree<RecordID<DeviceGroupRecord>> {
    /// The tree the stored groups make.
    init(_ groups: [DeviceGroupRecord]) {
        self.init(parents: Dictionary(uniqueKeysWithValues: groups.compactMap { group in group.parentID.map { (group.id, $0) } }))
    }
}

/// A managed device, entered by hand or enrolled by the simulator.
package struct DeviceRecord: Record {
    package static let tableName = "devices"

    package var id: RecordID<DeviceRecord> = .unsaved
    var name: String { didSet { foldedName = SearchFolding.folded(name) } }
    var model: DeviceModel
    var osVersion: String
    var serialNumber: String
    var udid: String
    var isSupervised: Bool
    var owner: String { didSet { foldedOwner = SearchFolding.folded(owner) } }
    var groupID: RecordID<DeviceGroupRecord>?
    /// Bundle IDs, stored as a JSON array.
    var installedApps: [String]
    var enrolledAt: Date
    var lastCheckInAt: Date?
    /// SHA-256 of the token the device checks in with; nil for devices added by hand.
    var tokenHash: String? = nil
    /// The name and owner as the device search reads them (`SearchFolding`), kept in step.
    private(set) var foldedName: String
    private(set) var foldedOwner: String

    package init(id: RecordID<DeviceRecord> = .unsaved, name: String, model: DeviceModel, osVersion: String, serialNumber: String, udid: String,
                 isSupervised: Bool, owner: String, groupID: RecordID<DeviceGroupRecord>?, installedApps: [String], enrolledAt: Date,
                 lastCheckInAt: Date?, tokenHash: String? = nil) {
        self.id = id
        self.name = name
        self.model = model
        self.osVersion = osVersion
        self.serialNumber = serialNumber
        self.udid = udid
        self.isSupervised = isSupervised
        self.owner = owner
        foldedName = SearchFolding.folded(name)
        foldedOwner = SearchFolding.folded(owner)
        self.groupID = groupID
        self.installedApps = installedApps
        self.enrolledAt = enrolledAt
        self.lastCheckInAt = lastCheckInAt
        self.tokenHash = tokenHash
    }

    /// Takes everything a validated form or API body says about the device; the page and the
    /// API replace devices the same way.
    mutating func apply(_ draft: DeviceDraft, groupID: RecordID<DeviceGroupRecord>?) {
        name = draft.name
        model = draft.model ?? model
        osVersion = draft.osVersion
        serialNumber = draft.serialNumber
        udid = draft.udid
        isSupervised = draft.isSupervised
        owner = draft.owner
        self.groupID = groupID
        installedApps = draft.installedApps
    }
}

extension DeviceModel: SQLiteValueConvertible {
    public var sqliteValue: SQLiteValue { .text(rawValue) }
    public init?(sqliteValue: SQLiteValue) {
        guard case .text(let text) = sqliteValue else { return nil }
        self.init(rawValue: text)
    }
}

extension Array where Element == AppRecord {
    /// The catalog by bundle ID (the first app where two share one), to label lines, devices
    /// and feedback with the app's name.
    var byBundleID: [String: AppRecord] { Dictionary(map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first }) }
    var namesByBundleID: [String: String] { Dictionary(map { ($0.bundleID, $0.name) }, uniquingKeysWith: { first, _ in first }) }
}
