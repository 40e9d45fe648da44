import Domain
import Foundation
import Hummingbird
import Mustache
import Storage

/// Devices: a page per device, and admin forms to add, edit and remove them (the list is
/// `DeviceListController`).
struct DevicesController {
    let catalogReader: CatalogReader
    let now: @Sendable () -> Date
    let renderer: PageRenderer
    let catalog: CatalogService
    let cookies: CookieJar

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.new) { request, context in
            try await form(DeviceForm(), request: request, context: context)
        }
        routes.on(Site.Devices.add, use: create)
        routes.on(Site.Devices.show, use: show)
        routes.on(Site.Devices.sdkProfile) { id, _, _ in
            let (device, policy) = try await catalogReader.effectivePolicy(of: id)
            do {
                return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store",
                                                       .contentDisposition: "attachment; filename=\"\(DeviceSDKProfile.filename(for: device))\""],
                                body: .init(byteBuffer: ByteBuffer(bytes: try DeviceSDKProfile.json(for: device, policy: policy))))
            } catch let conflict as DeviceSDKProfile.Conflict {
                throw HTTPError(.conflict, message: "Single App Mode for \(conflict.apps.joined(separator: " and ")) reaches this device: it keeps its previous policy, so there is no one SDK policy to download.")
            }
        }
        routes.on(Site.Devices.edit) { id, request, context in
            let device = try await catalogReader.device(id)
            return try await form(DeviceForm(device), request: request, context: context)
        }
        routes.on(Site.Devices.update, use: update)
        routes.on(Site.Devices.remove, use: delete)
    }

    // MARK: detail

    @Sendable func show(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        try await page(id, request: request, context: context)
    }

    /// The device page; after a refused command or note, with that form and its messages.
    func page(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext, commandForm: CommandForm = CommandForm(),
              note: DevicePage.NoteDraft? = nil, status: HTTPResponse.Status = .ok) async throws -> Response {
        let canReadLogs = context.user.role.includes(.helpdesk)
        let overview = try await catalogReader.overview(of: id, withWorkspace: canReadLogs)
        let query = request.uri.queryParameters
        let question = (latitude: query[Substring(GeofenceCheckView.latitudeName)].map(String.init) ?? "",
                        longitude: query[Substring(GeofenceCheckView.longitudeName)].map(String.init) ?? "")
        let view = DevicePage(overview, principal: context.principal, now: now(), commandForm: commandForm, note: note, geofenceQuestion: question)
        return try renderer.page("devices/show", title: overview.device.name, model: view, request: request, context: context, status: status)
    }

    // MARK: forms

    private func form(_ form: DeviceForm, request: Request, context: SignedInContext, status: HTTPResponse.Status = .ok) async throws -> Response {
        let (groups, apps) = try await catalogReader.formChoices()
        let view = form.view(groups: groups, apps: apps)
        return try renderer.page("devices/form", title: view.title, model: view, request: request, context: context, status: status)
    }

    @Sendable func create(request: Request, context: SignedInContext) async throws -> Response {
        var submitted = DeviceForm(context.form)
        if let draft = submitted.validDraft() {
            do {
                let device = try await catalog.addDevice(draft, groupID: submitted.groupID, by: Actor(context.user))
                return .seeOther(Site.Devices.show.link(device.id), flash: .notice("Added \(device.name)."), cookies: cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await form(submitted, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func update(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        var submitted = DeviceForm(context.form)
        submitted.deviceID = id
        if let draft = submitted.validDraft() {
            do {
                let device = try await catalog.updateDevice(id, to: draft, groupID: submitted.groupID, by: Actor(context.user))
                return .seeOther(Site.Devices.show.link(id), flash: .notice("Saved \(device.name)."), cookies: cookies, request: request)
            } catch let refusal as CatalogRefusal {
                submitted.errors.merge(refusal.messages) { $1 }
            }
        }
        return try await form(submitted, request: request, context: context, status: .unprocessableContent)
    }

    @Sendable func delete(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let device = try await catalog.removeDevice(id, by: Actor(context.user))
        return .seeOther(Site.Devices.list.link(), flash: .notice("Removed \(device.name)."), cookies: cookies, request: request)
    }
}

extension AppsController.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "logsPath": logsPath
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

