import Domain
import Foundation
import Hummingbird
import Mustache
import Storage

/// Devices: a page per device, and admin forms to add, edit and remove them (the list is
/// `DeviceListController`).
struct DevicesController {
    let services: Services
    static let pageSize = 50

    func register(on routes: SecuredRoutes) {
        routes.get("/devices/new", role: .admin) { request, context in
            try await form(DeviceForm(), request: request, context: context)
        }
        routes.post("/devices", role: .admin, use: create)
        routes.get("/devices/{id}", role: .viewer, use: show)
        routes.get("/devices/{id}/edit", role: .admin) { request, context in
            let device = try await services.catalogReader.device(context.parameters.require("id", as: RecordID<DeviceRecord>.self))
            return try await form(DeviceForm(device), request: request, context: context)
        }
        routes.post("/devices/{id}", role: .admin, use: update)
        routes.post("/devices/{id}/delete", role: .admin, use: delete)
    }

    // MARK: detail

    struct ShowView {
        let id: RecordID<DeviceRecord>
        let name: String
        let model: String
        let osVersion: String
        let serialNumber: String
        let udid: String
        let supervised: Bool
        let owner: String?
        let groupLineage: String?
        let apps: [AppsController.Row]
        let unknownApps: [String]
        let enrolled: String
        let lastCheckIn: String
        let canEdit: Bool
        let policy: PolicyView?
        let commands: DeviceCommandsView
        let canReadLogs: Bool
    }

    @Sendable func show(request: Request, context: SignedInContext) async throws -> Response {
        try await page(try context.parameters.require("id", as: RecordID<DeviceRecord>.self), request: request, context: context)
    }

    /// The device page; after a refused command, with that command form and its messages.
    func page(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext, commandForm: CommandForm = CommandForm(),
              status: HTTPResponse.Status = .ok) async throws -> Response {
        let overview = try await services.catalogReader.overview(of: id)
        let (device, groups, apps, reaching, commands) = (overview.device, overview.groups, overview.apps, overview.reaching, overview.commands)
        let names = Dictionary(uniqueKeysWithValues: groups.map { ($0.id!, $0.name) })
        let tree = GroupTree(groups)
        let lineage = device.groupID.map { tree.lineage(of: $0).compactMap { names[$0] }.joined(separator: " › inside ") } ?? ""
        let catalog = Dictionary(apps.map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
        let now = services.now
        let view = ShowView(
            id: id, name: device.name, model: device.model.rawValue, osVersion: device.osVersion,
            serialNumber: device.serialNumber, udid: device.udid, supervised: device.isSupervised,
            owner: device.owner.isEmpty ? nil : device.owner,
            groupLineage: lineage.isEmpty ? nil : lineage, apps: device.installedApps.compactMap { catalog[$0].map(AppsController.row) },
            unknownApps: device.installedApps.filter { catalog[$0] == nil },
            enrolled: DisplayTime.relative(device.enrolledAt, now: now),
            lastCheckIn: device.lastCheckInAt.map { DisplayTime.relative($0, now: now) } ?? "never",
            canEdit: context.user.role.includes(.admin),
            policy: reaching.map { PolicyView(EffectivePolicy.compute(from: $0)) },
            commands: DeviceCommandsView(deviceID: id, commands: commands, role: context.user.role, now: now, back: Paths.device(id),
                                         form: commandForm),
            canReadLogs: context.user.role.includes(.helpdesk))
        return try services.renderer.page("devices/show", title: device.name, model: view, request: request, context: context, status: status)
    }

    // MARK: forms

    private func form(_ form: DeviceForm, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (groups, apps) = try await services.catalogReader.formChoices()
        let view = form.view(groups: groups, apps: apps)
        return try services.renderer.page("devices/form", title: view.title, model: view, request: request, context: context, status: status)
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        var submitted = DeviceForm(context.form)
        if let draft = submitted.validDraft() {
            do {
                let device = try await services.catalog.addDevice(draft, groupID: submitted.groupID, by: Actor(context.user))
                return .seeOther(Paths.device(device.id!), flash: .notice("Added \(device.name)."), cookies: services.cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await form(submitted, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func update(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        var submitted = DeviceForm(context.form)
        submitted.deviceID = id
        if let draft = submitted.validDraft() {
            do {
                let device = try await services.catalog.updateDevice(id, to: draft, groupID: submitted.groupID, by: Actor(context.user))
                return .seeOther(Paths.device(id), flash: .notice("Saved \(device.name)."), cookies: services.cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await form(submitted, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let device = try await services.catalog.removeDevice(id, by: Actor(context.user))
        return .seeOther(Paths.devices, flash: .notice("Removed \(device.name)."), cookies: services.cookies, request: request)
    }
}

// The device page is a hot page (helpdesk opens it for every call), so its models answer the
// template engine directly rather than through reflection.
extension DevicesController.ShowView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "simulatorPath": Paths.simulator(id)
        case "logsPath": Paths.logs(of: id)
        case "editPath": Paths.deviceEdit(id)
        case "deletePath": Paths.deviceDelete(id)
        case "name": self.name
        case "model": model
        case "osVersion": osVersion
        case "serialNumber": serialNumber
        case "udid": udid
        case "supervised": supervised
        case "owner": owner
        case "groupLineage": groupLineage
        case "apps": apps
        case "unknownApps": unknownApps
        case "enrolled": enrolled
        case "lastCheckIn": lastCheckIn
        case "canEdit": canEdit
        case "policy": policy
        case "commands": commands
        case "canReadLogs": canReadLogs
        default: nil
        }
    }
}

extension AppsController.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "editPath": editPath
        case "deletePath": deletePath
        case "name": self.name
        case "bundleID": bundleID
        case "color": color
        case "traits": traits
        default: nil
        }
    }
}

