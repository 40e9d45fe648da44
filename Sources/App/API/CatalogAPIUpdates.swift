import Domain
import Foundation
import Hummingbird
import Storage

/// Replacing apps, groups and devices through the API: `PUT` takes the same body as `POST`
/// and answers the item as it is now, through the same `CatalogService` as the pages.
extension CatalogAPIController {
    static let updateApp = Endpoint<RecordID<AppRecord>, AppBody, AppAnswer>(.put, "/api/v1/apps/{id}", role: .admin, "Replace an app (same body as POST)",
                                                           otherAnswers: [409: "bundle_id_taken"])
    static let updateGroup = Endpoint<RecordID<DeviceGroupRecord>, GroupBody, GroupAnswer>(.put, "/api/v1/groups/{id}", role: .admin,
                                                                 "Rename or move a group (same body as POST; a group cannot move inside itself)",
                                                                 otherAnswers: [409: "group_name_taken"])
    static let updateDevice = Endpoint<RecordID<DeviceRecord>, DeviceBody, UpdatedDevice>(.put, "/api/v1/devices/{id}", role: .admin,
                                                                     "Replace a device (same body as POST; fields left out take their defaults)",
                                                                     otherAnswers: [409: "device_exists"])

    func registerUpdates(on routes: SecuredRoutes) {
        routes.handle(Self.updateApp) { id, body, _, context in
            return Reply(AppAnswer(try await catalog.updateApp(id, to: body.draft, by: Actor(context.user))))
        }
        routes.handle(Self.updateGroup) { id, body, _, context in
            return Reply(GroupAnswer(try await catalog.updateGroup(id, to: body.draft, parentID: body.parentID, by: Actor(context.user))))
        }
        routes.handle(Self.updateDevice) { id, body, _, context in
            let device = try await catalog.updateDevice(id, to: try body.draft(), groupID: body.groupID, by: Actor(context.user))
            return Reply(UpdatedDevice(id: device.id, name: device.name, udid: device.udid, groupID: device.groupID, installedApps: device.installedApps))
        }
    }
}
