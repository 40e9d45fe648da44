import Domain
import Foundation
import Hummingbird
import Storage

/// Replacing apps, groups and devices through the API: `PUT` takes the same body as `POST`
/// and answers the item as it is now, through the same `CatalogService` as the pages.
extension CatalogAPIController {
    func registerUpdates(on routes: SecuredRoutes) {
        routes.put("/api/v1/apps/{id}", role: .admin) { request, context in
            let id = try context.parameters.require("id", as: RecordID<AppRecord>.self)
            let body = try await APIRequest.decode(AppBody.self, from: request)
            let app = try await services.catalog.updateApp(id, to: body.draft, by: Actor(context.user))
            return try .jsonObject(Self.json(app))
        }
        routes.put("/api/v1/groups/{id}", role: .admin) { request, context in
            let id = try context.parameters.require("id", as: RecordID<DeviceGroupRecord>.self)
            let body = try await APIRequest.decode(GroupBody.self, from: request)
            let group = try await services.catalog.updateGroup(id, to: body.draft, parentID: body.parentID, by: Actor(context.user))
            return try .jsonObject(Self.json(group))
        }
        routes.put("/api/v1/devices/{id}", role: .admin) { request, context in
            let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
            let body = try await APIRequest.decode(DeviceBody.self, from: request)
            let device = try await services.catalog.updateDevice(id, to: try body.draft(), groupID: body.groupID, by: Actor(context.user))
            return try .jsonObject(["id": device.id.rawValue, "name": device.name, "udid": device.udid,
                                    "groupID": device.groupID.map { $0.rawValue as Any } ?? NSNull(), "installedApps": device.installedApps])
        }
    }

    static func json(_ app: AppRecord) -> [String: Any] {
        ["id": app.id.rawValue, "name": app.name, "bundleID": app.bundleID, "isManaged": app.isManaged,
         "isSDKBuilt": app.isSDKBuilt, "hasAssessmentEntitlement": app.hasAssessmentEntitlement,
         "role": app.role?.rawValue as Any? ?? NSNull()]
    }

    static func json(_ group: DeviceGroupRecord) -> [String: Any] {
        ["id": group.id.rawValue, "name": group.name, "parentID": group.parentID.map { $0.rawValue as Any } ?? NSNull()]
    }
}
