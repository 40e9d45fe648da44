import Domain
import Foundation
import Hummingbird
import Storage

/// Replacing apps, groups and devices through the API: `PUT` takes the same body as `POST`
/// and answers the item as it is now, with the same checks and audit as the pages.
extension CatalogAPIController {
    func registerUpdates(on routes: SecuredRoutes) {
        routes.put("/api/v1/apps/{id}", .role(.admin), use: updateApp)
        routes.put("/api/v1/groups/{id}", .role(.admin), use: updateGroup)
        routes.put("/api/v1/devices/{id}", .role(.admin), use: updateDevice)
    }

    // MARK: handlers

    @Sendable func updateApp(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let id = try context.parameters.require("id", as: RecordID<AppRecord>.self)
        let draft = try await APIRequest.decode(AppBody.self, from: request).draft()
        do {
            let app = try services.database.write { connection in
                var record = try connection.require(AppRecord.self, id: id)
                let before = AppsController.summary(record)
                record.apply(draft)
                try connection.update(record)
                try connection.audit("app.updated", subject: record.bundleID, by: actor, before: before, after: AppsController.summary(record), at: services.now)
                return record
            }
            return try .jsonObject(["id": app.id!.rawValue, "name": app.name, "bundleID": app.bundleID, "isManaged": app.isManaged,
                                    "isSDKBuilt": app.isSDKBuilt, "hasAssessmentEntitlement": app.hasAssessmentEntitlement])
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: "bundle_id_taken", message: "\(draft.normalised.bundleID) is already in the catalog.", field: "bundleID")
        }
    }

    @Sendable func updateGroup(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let id = try context.parameters.require("id", as: RecordID<DeviceGroupRecord>.self)
        let body = try await APIRequest.decode(GroupBody.self, from: request)
        let (name, parentID) = (try body.draft().name, body.parentID)
        do {
            try services.database.write { connection in
                var group = try connection.require(DeviceGroupRecord.self, id: id)
                if let parentID {
                    guard try connection.find(DeviceGroupRecord.self, id: parentID) != nil else {
                        throw APIError(status: .unprocessableContent, code: "validation_failed", message: "No group has that parentID.", field: "parentID")
                    }
                    let groups = try connection.fetch(DeviceGroupRecord.query())
                    let tree = GroupTree(parents: Dictionary(uniqueKeysWithValues: groups.compactMap { g in g.parentID.map { (g.id!, $0) } }))
                    if parentID == id || tree.wouldCreateCycle(settingParentOf: id, to: parentID) {
                        throw APIError(status: .unprocessableContent, code: "validation_failed",
                                       message: "A group cannot sit inside itself or one of its own subgroups.", field: "parentID")
                    }
                }
                let before = "\(group.name), parent \(group.parentID?.description ?? "none")"
                group.name = name
                group.parentID = parentID
                try connection.update(group)
                try connection.audit("group.updated", subject: group.name, by: actor, before: before,
                                     after: "\(group.name), parent \(group.parentID?.description ?? "none")", at: services.now)
            }
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: "group_name_taken", message: "There is already a group called \(name).", field: "name")
        }
        return try .jsonObject(["id": id.rawValue, "name": name, "parentID": parentID.map { $0.rawValue as Any } ?? NSNull()])
    }

    @Sendable func updateDevice(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let body = try await APIRequest.decode(DeviceBody.self, from: request)
        let (draft, groupID) = (try body.draft(), body.groupID)
        do {
            let device = try services.database.write { connection in
                var device = try connection.require(DeviceRecord.self, id: id)
                if let groupID {
                    guard try connection.find(DeviceGroupRecord.self, id: groupID) != nil else {
                        throw APIError(status: .unprocessableContent, code: "validation_failed", message: "No group has that groupID.", field: "groupID")
                    }
                }
                let before = DeviceForm.summary(device)
                device.apply(draft, groupID: groupID)
                try connection.update(device)
                try connection.audit("device.updated", subject: device.name, by: actor, before: before, after: DeviceForm.summary(device), at: services.now)
                return device
            }
            return try .jsonObject(["id": device.id!.rawValue, "name": device.name, "udid": device.udid,
                                    "groupID": device.groupID.map { $0.rawValue as Any } ?? NSNull(), "installedApps": device.installedApps])
        } catch StorageError.uniqueViolation(let constraint) {
            let field = constraint.contains("udid") ? "udid" : "serialNumber"
            throw APIError(status: .conflict, code: "device_exists", message: "Another device already has this \(field).", field: field)
        }
    }
}
