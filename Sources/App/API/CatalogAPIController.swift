import Domain
import Foundation
import Hummingbird
import Storage

/// Read access to the catalog for scripts: groups, apps, and devices a page at a time.
struct CatalogAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.post("/api/v1/apps", .role(.admin), use: createApp)
        routes.post("/api/v1/groups", .role(.admin), use: createGroup)
        routes.post("/api/v1/devices", .role(.admin), use: createDevice)
        routes.delete("/api/v1/apps/{id}", .role(.admin)) { _, context in
            let actor = Actor(try context.requireUser())
            let id = try context.parameters.require("id", as: RecordID<AppRecord>.self)
            try services.database.write { connection in
                let app = try connection.require(AppRecord.self, id: id)
                try connection.delete(AppRecord.self, id: id)
                try connection.audit("app.deleted", subject: app.bundleID, by: actor, before: AppsController.summary(app), at: services.now)
            }
            return Response(status: .noContent)
        }
        routes.delete("/api/v1/groups/{id}", .role(.admin)) { _, context in
            let actor = Actor(try context.requireUser())
            let id = try context.parameters.require("id", as: RecordID<DeviceGroupRecord>.self)
            do {
                try services.database.write { connection in
                    let group = try connection.require(DeviceGroupRecord.self, id: id)
                    try connection.delete(DeviceGroupRecord.self, id: id)
                    try connection.audit("group.deleted", subject: group.name, by: actor, at: services.now)
                }
            } catch StorageError.foreignKeyViolation {
                throw APIError(status: .conflict, code: "group_not_empty", message: "The group still holds devices or subgroups. Move them first.")
            }
            return Response(status: .noContent)
        }
        routes.delete("/api/v1/devices/{id}", .role(.admin)) { _, context in
            let actor = Actor(try context.requireUser())
            let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
            try services.database.write { connection in
                let device = try connection.require(DeviceRecord.self, id: id)
                try connection.delete(DeviceRecord.self, id: id)
                try connection.audit("device.deleted", subject: device.name, by: actor, before: DeviceForm.summary(device), at: services.now)
            }
            return Response(status: .noContent)
        }
        routes.put("/api/v1/devices/{id}/group", .role(.admin), use: moveDevice)
        registerUpdates(on: routes)
        routes.get("/api/v1/groups", .role(.viewer)) { _, _ in
            let groups = try services.database.read { try $0.fetch(DeviceGroupRecord.query().order(by: "name")) }
            return try .jsonObject(["groups": groups.map {
                ["id": $0.id!.rawValue, "name": $0.name, "parentID": $0.parentID.map { $0.rawValue as Any } ?? NSNull()] as [String: Any]
            }])
        }
        routes.get("/api/v1/apps", .role(.viewer)) { _, _ in
            let apps = try services.database.read { try $0.fetch(AppRecord.query().order(by: "name")) }
            return try .jsonObject(["apps": apps.map {
                ["id": $0.id!.rawValue, "name": $0.name, "bundleID": $0.bundleID, "isManaged": $0.isManaged,
                 "isSDKBuilt": $0.isSDKBuilt, "hasAssessmentEntitlement": $0.hasAssessmentEntitlement] as [String: Any]
            }])
        }
        routes.get("/api/v1/devices", .role(.viewer)) { request, _ in
            let after: RecordID<DeviceRecord>? = try APIQuery.id("after", of: request)
            let group: RecordID<DeviceGroupRecord>? = try APIQuery.id("group", of: request)
            let limit = try APIQuery.limit(of: request)
            let devices = try services.database.read {
                try $0.fetch(DeviceRecord.self, DevicesController.pageQuery(group: group, after: after, limit: limit + 1))
            }
            let page = devices.prefix(limit)
            var body: [String: Any] = ["devices": page.map {
                ["id": $0.id!.rawValue, "name": $0.name, "model": $0.model.rawValue, "osVersion": $0.osVersion,
                 "serialNumber": $0.serialNumber, "udid": $0.udid, "isSupervised": $0.isSupervised,
                 "groupID": $0.groupID.map { $0.rawValue as Any } ?? NSNull(), "installedApps": $0.installedApps] as [String: Any]
            }]
            if devices.count > limit, let last = page.last?.id { body["next"] = "/api/v1/devices?after=\(last)&limit=\(limit)" + (group.map { "&group=\($0)" } ?? "") }
            return try .jsonObject(body)
        }
    }

    @Sendable func createApp(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let draft = try await APIRequest.decode(AppBody.self, from: request).draft()
        do {
            let app = try services.database.write { connection in
                var record = AppRecord(id: nil, name: "", bundleID: "", isManaged: true, isSDKBuilt: false, hasAssessmentEntitlement: false,
                                       iconColor: "", createdAt: services.now)
                record.apply(draft)
                let saved = try connection.insert(record)
                try connection.audit("app.created", subject: saved.bundleID, by: actor, after: AppsController.summary(saved), at: services.now)
                return saved
            }
            return try .jsonObject(["id": app.id!.rawValue, "name": app.name, "bundleID": app.bundleID], status: .created)
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: "bundle_id_taken", message: "\(draft.normalised.bundleID) is already in the catalog.", field: "bundleID")
        }
    }

    @Sendable func createGroup(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let body = try await APIRequest.decode(GroupBody.self, from: request)
        let (name, parentID) = (try body.draft().name, body.parentID)
        do {
            let group = try services.database.write { connection in
                if let parentID { _ = try connection.require(DeviceGroupRecord.self, id: parentID) }
                let group = try connection.insert(DeviceGroupRecord(id: nil, name: name, parentID: parentID, createdAt: services.now))
                try connection.audit("group.created", subject: group.name, by: actor, at: services.now)
                return group
            }
            return try .jsonObject(["id": group.id!.rawValue, "name": group.name, "parentID": parentID.map { $0.rawValue as Any } ?? NSNull()], status: .created)
        } catch StorageError.uniqueViolation {
            throw APIError(status: .conflict, code: "group_name_taken", message: "There is already a group called \(name).", field: "name")
        } catch StorageError.notFound {
            throw APIError(status: .unprocessableContent, code: "validation_failed", message: "No group has that parentID.", field: "parentID")
        }
    }

    /// Moves a device to another group (or none, with `"groupID": null`).
    @Sendable func moveDevice(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let groupID = try await APIRequest.decode(MoveDeviceBody.self, from: request).groupID
        do {
            try services.database.write { connection in
                var device = try connection.require(DeviceRecord.self, id: id)
                if let groupID { _ = try connection.require(DeviceGroupRecord.self, id: groupID) }
                let before = DeviceForm.summary(device)
                device.groupID = groupID
                try connection.update(device)
                try connection.audit("device.updated", subject: device.name, by: actor, before: before, after: DeviceForm.summary(device), at: services.now)
            }
        } catch StorageError.notFound(let table) where table == DeviceGroupRecord.tableName {
            throw APIError(status: .unprocessableContent, code: "validation_failed", message: "No group has that groupID.", field: "groupID")
        }
        return Response(status: .noContent)
    }

    @Sendable func createDevice(request: Request, context: AppRequestContext) async throws -> Response {
        let actor = Actor(try context.requireUser())
        let body = try await APIRequest.decode(DeviceBody.self, from: request)
        let (draft, groupID) = (try body.draft(), body.groupID)
        do {
            let device = try services.database.write { connection in
                if let groupID { _ = try connection.require(DeviceGroupRecord.self, id: groupID) }
                let device = try connection.insert(DeviceRecord(
                    id: nil, name: draft.name, model: draft.model ?? .iPad, osVersion: draft.osVersion, serialNumber: draft.serialNumber,
                    udid: draft.udid, isSupervised: draft.isSupervised, owner: draft.owner, groupID: groupID, installedApps: draft.installedApps,
                    enrolledAt: services.now, lastCheckInAt: nil))
                try connection.audit("device.created", subject: device.name, by: actor, after: DeviceForm.summary(device), at: services.now)
                return device
            }
            return try .jsonObject(["id": device.id!.rawValue, "name": device.name, "udid": device.udid], status: .created)
        } catch StorageError.uniqueViolation(let constraint) {
            let field = constraint.contains("udid") ? "udid" : "serialNumber"
            throw APIError(status: .conflict, code: "device_exists", message: "Another device already has this \(field).", field: field)
        } catch StorageError.notFound {
            throw APIError(status: .unprocessableContent, code: "validation_failed", message: "No group has that groupID.", field: "groupID")
        }
    }
}
