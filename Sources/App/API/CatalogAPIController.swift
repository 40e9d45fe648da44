import Domain
import Foundation
import Hummingbird
import Storage

/// The catalog for scripts: groups, apps, and devices a page at a time.
struct CatalogAPIController {
    let catalogReader: CatalogReader
    let catalog: CatalogService
    let now: @Sendable () -> Date

    static let listGroups = APIEndpoint<NoBody, GroupList>(.get, "/api/v1/groups", role: .viewer, "List device groups")
    static let createGroup = APIEndpoint<GroupBody, GroupAnswer>(.post, "/api/v1/groups", role: .admin, "Create a group",
                                                                 success: .created, otherAnswers: [409: "group_name_taken"])
    static let removeGroup = Endpoint<RecordID<DeviceGroupRecord>, NoBody, NoContent>(.delete, "/api/v1/groups/{id}", role: .admin, "Remove an empty group",
                                                            success: .noContent, otherAnswers: [409: "group_not_empty"])
    static let listApps = APIEndpoint<NoBody, AppList>(.get, "/api/v1/apps", role: .viewer, "List catalog apps")
    static let createApp = APIEndpoint<AppBody, AppAnswer>(.post, "/api/v1/apps", role: .admin, "Add an app",
                                                           success: .created, otherAnswers: [409: "bundle_id_taken"])
    static let removeApp = Endpoint<RecordID<AppRecord>, NoBody, NoContent>(.delete, "/api/v1/apps/{id}", role: .admin, "Remove an app from the catalog",
                                                          success: .noContent)
    static let listDevices = APIEndpoint<NoBody, DeviceListAnswer>(.get, "/api/v1/devices", role: .viewer, "List devices, a page at a time (follow next)",
                                                                   parameters: ["device filters", "limit"])
    static let createDevice = APIEndpoint<DeviceBody, CreatedDevice>(.post, "/api/v1/devices", role: .admin, "Add a device",
                                                                     success: .created, otherAnswers: [409: "device_exists"])
    static let removeDevice = Endpoint<RecordID<DeviceRecord>, NoBody, NoContent>(.delete, "/api/v1/devices/{id}", role: .admin, "Remove a device",
                                                             success: .noContent)
    static let moveDevice = Endpoint<RecordID<DeviceRecord>, MoveDeviceBody, NoContent>(.put, "/api/v1/devices/{id}/group", role: .admin,
                                                                   "Move a device to a group (groupID null: no group)", success: .noContent)
    static let deviceSDKProfile = Endpoint<RecordID<DeviceRecord>, NoBody, FileAnswer<SDKProfileFile>>(
        .get, "/api/v1/devices/{id}/sdk-profile", role: .viewer, "A device's effective SDK policy as the SDK profile its apps download (the SDK's key names)",
        otherAnswers: [409: "policy_conflict: two Single App Mode payloads reach the device"])

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.listGroups) { _, _ in Reply(GroupList(groups: try await catalogReader.groups().map(GroupAnswer.init))) }
        routes.handle(Self.createGroup) { body, _, context in
            Reply(GroupAnswer(try await catalog.addGroup(body.draft, parentID: body.parentID, by: Actor(context.user))))
        }
        routes.handle(Self.removeGroup) { id, _, context in
            try await catalog.removeGroup(id, by: Actor(context.user))
            return .done
        }
        routes.handle(Self.listApps) { _, _ in Reply(AppList(apps: try await catalogReader.apps().map(AppAnswer.init))) }
        routes.handle(Self.createApp) { body, _, context in
            Reply(AppAnswer(try await catalog.addApp(body.draft, by: Actor(context.user))))
        }
        routes.handle(Self.removeApp) { id, _, context in
            try await catalog.removeApp(id, by: Actor(context.user))
            return .done
        }
        routes.handle(Self.listDevices) { request, _ in Reply(try await deviceList(request)) }
        routes.handle(Self.createDevice) { body, _, context in
            let device = try await catalog.addDevice(try body.draft(), groupID: body.groupID, by: Actor(context.user))
            return Reply(CreatedDevice(id: device.id, name: device.name, udid: device.udid))
        }
        routes.handle(Self.removeDevice) { id, _, context in
            try await catalog.removeDevice(id, by: Actor(context.user))
            return .done
        }
        routes.handle(Self.moveDevice) { id, body, _, context in
            try await catalog.moveDevice(id, to: body.groupID, by: Actor(context.user))
            return .done
        }
        routes.handle(Self.deviceSDKProfile) { id, _, context in
            let (device, policy) = try await catalogReader.effectivePolicy(of: id)
            do {
                return Reply(FileAnswer(SDKProfileFile(), bytes: try DeviceSDKProfile.json(for: device, policy: policy)))
            } catch let conflict as DeviceSDKProfile.Conflict {
                throw APIError(status: .conflict, code: .policyConflict,
                               message: "Single App Mode for \(conflict.apps.joined(separator: " and ")) reaches this device: it keeps its previous policy, so there is no one SDK policy.")
            }
        }
        registerUpdates(on: routes)
    }

    /// One page of the device list, filtered as the device list page filters.
    private func deviceList(_ request: Request) async throws -> DeviceListAnswer {
        let filter: DeviceListFilter
        do { filter = try DeviceListFilter(request.uri.formParameters, strict: true) } catch {
            throw APIError(status: .badRequest, code: .invalidQuery, message: error.message, field: error.parameter)
        }
        let limit = try APIQuery.limit(of: request)
        let list = try await catalogReader.deviceList(filter, limit: limit, now: now())
        let page = list.devices.prefix(limit)
        let next = list.devices.count > limit ? page.last.map { Self.listDevices.link() + "?" + filter.query(after: $0.device.id) + "&limit=\(limit)" } : nil
        return DeviceListAnswer(total: list.total, devices: page.map { ListedDevice($0, policy: $0.device.groupID.flatMap { list.policies[$0] }) }, next: next)
    }
}
