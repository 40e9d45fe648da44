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
        routes.get("/api/v1/devices/{id}/sdk-profile", role: .viewer) { _, context in
            let (device, policy) = try await services.catalogReader.effectivePolicy(of: context.parameters.require("id", as: RecordID<DeviceRecord>.self))
            do {
                return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(bytes: try DeviceSDKProfile.json(for: device, policy: policy))))
            } catch let conflict as DeviceSDKProfile.Conflict {
                throw APIError(status: .conflict, code: .policyConflict,
                               message: "Single App Mode for \(conflict.apps.joined(separator: " and ")) reaches this device: it keeps its previous policy, so there is no one SDK policy.")
            }
        }
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
            let filter: DeviceListFilter
            do { filter = try DeviceListFilter(request.uri.formParameters, strict: true) } catch let error as DeviceListFilter.Invalid {
                throw APIError(status: .badRequest, code: .invalidQuery, message: error.message, field: error.parameter)
            }
            let limit = try APIQuery.limit(of: request)
            let list = try await services.catalogReader.deviceList(filter, limit: limit, now: services.now)
            let page = list.devices.prefix(limit)
            var body: [String: Any] = ["total": list.total, "devices": page.map { listed in
                let device = listed.device
                let policy = device.groupID.flatMap { list.policies[$0] }
                return ["id": device.id.rawValue, "name": device.name, "model": device.model.rawValue, "osVersion": device.osVersion,
                        "serialNumber": device.serialNumber, "udid": device.udid, "isSupervised": device.isSupervised, "owner": device.owner,
                        "groupID": device.groupID.map { $0.rawValue as Any } ?? NSNull(), "installedApps": device.installedApps,
                        "lastCheckInAt": device.lastCheckInAt.map { DisplayTime.iso($0) as Any } ?? NSNull(),
                        "lock": listed.lockMode.map { ["mode": $0, "app": listed.lockApp as Any? ?? NSNull()] as Any } ?? NSNull(),
                        "singleAppModeApp": policy?.singleAppModeApp as Any? ?? NSNull(),
                        "conflictApps": policy?.conflictApps ?? [],
                        "compliance": listed.compliance?.rawValue as Any? ?? NSNull()] as [String: Any]
            }]
            if list.devices.count > limit, let last = page.last?.device.id {
                body["next"] = "/api/v1/devices?" + filter.query(after: last) + "&limit=\(limit)"
            }
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
        return try .jsonObject(["id": device.id.rawValue, "name": device.name, "udid": device.udid], status: .created)
    }
}
