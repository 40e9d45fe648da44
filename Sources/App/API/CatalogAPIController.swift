import Domain
import Foundation
import Hummingbird
import Storage

/// Read access to the catalog for scripts: groups, apps, and devices a page at a time.
struct CatalogAPIController {
    let services: Services

    func register(on routes: SecuredRoutes) {
        routes.post("/api/v1/apps", role: .admin, use: createApp)
        routes.post("/api/v1/groups", role: .admin, use: createGroup)
        routes.post("/api/v1/devices", role: .admin, use: createDevice)
        routes.delete("/api/v1/apps/{id}", role: .admin) { _, context in
            try await services.catalog.removeApp(try context.parameters.require("id", as: RecordID<AppRecord>.self), by: Actor(context.user))
            return Response(status: .noContent)
        }
        routes.delete("/api/v1/groups/{id}", role: .admin) { _, context in
            let id = try context.parameters.require("id", as: RecordID<DeviceGroupRecord>.self)
            try await services.catalog.removeGroup(id, by: Actor(context.user))
            return Response(status: .noContent)
        }
        routes.delete("/api/v1/devices/{id}", role: .admin) { _, context in
            let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
            try await services.catalog.removeDevice(id, by: Actor(context.user))
            return Response(status: .noContent)
        }
        routes.put("/api/v1/devices/{id}/group", role: .admin, use: moveDevice)
        registerUpdates(on: routes)
        routes.get("/api/v1/groups", role: .viewer) { _, _ in
            let groups = try await services.catalogReader.groups()
            return try .jsonObject(["groups": groups.map(Self.json)])
        }
        routes.get("/api/v1/apps", role: .viewer) { _, _ in
            let apps = try await services.catalogReader.apps()
            return try .jsonObject(["apps": apps.map(Self.json)])
        }
        routes.get("/api/v1/devices", role: .viewer) { request, _ in
            let after: RecordID<DeviceRecord>? = try APIQuery.id("after", of: request)
            let group: RecordID<DeviceGroupRecord>? = try APIQuery.id("group", of: request)
            let limit = try APIQuery.limit(of: request)
            let devices = try await services.catalogReader.devices(group: group, after: after, limit: limit)
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

    @Sendable func createApp(request: Request, context: SignedInContext) async throws -> Response {
        let body = try await APIRequest.decode(AppBody.self, from: request)
        let app = try await services.catalog.addApp(body.draft, by: Actor(context.user))
        return try .jsonObject(Self.json(app), status: .created)
    }

    @Sendable func createGroup(request: Request, context: SignedInContext) async throws -> Response {
        let body = try await APIRequest.decode(GroupBody.self, from: request)
        let group = try await services.catalog.addGroup(body.draft, parentID: body.parentID, by: Actor(context.user))
        return try .jsonObject(Self.json(group), status: .created)
    }

    /// Moves a device to another group (or none, with `"groupID": null`).
    @Sendable func moveDevice(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let groupID = try await APIRequest.decode(MoveDeviceBody.self, from: request).groupID
        try await services.catalog.moveDevice(id, to: groupID, by: Actor(context.user))
        return Response(status: .noContent)
    }

    @Sendable func createDevice(request: Request, context: SignedInContext) async throws -> Response {
        let body = try await APIRequest.decode(DeviceBody.self, from: request)
        let device = try await services.catalog.addDevice(try body.draft(), groupID: body.groupID, by: Actor(context.user))
        return try .jsonObject(["id": device.id!.rawValue, "name": device.name, "udid": device.udid], status: .created)
    }
}
