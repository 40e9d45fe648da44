import Domain
import Foundation
import Hummingbird
import Storage

/// Notes on a device page: written by anyone who reads logs, changed or removed by their
/// author or an admin. A refused note comes back on its page with the text and a message.
struct DeviceNotesController {
    let services: Services

    struct EditView {
        let deviceName: String
        let devicePath: String
        let action: String
        let body: String
        let error: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.post("/devices/{id}/notes", role: .helpdesk, use: add)
        routes.get("/devices/{id}/notes/{note}/edit", role: .helpdesk) { request, context in
            let (deviceID, noteID) = try Self.ids(context)
            let (device, note) = try await services.helpdeskReader.note(noteID, of: deviceID)
            guard NoteStore.mayChange(note, by: context.principal) else { throw AccessDenied.insufficientRole }
            return try editPage(device, noteID: noteID, body: note.body, error: nil, request: request, context: context)
        }
        routes.post("/devices/{id}/notes/{note}", role: .helpdesk, use: edit)
        routes.post("/devices/{id}/notes/{note}/delete", role: .helpdesk, use: delete)
    }

    private static func ids(_ context: SignedInContext) throws -> (RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>) {
        (try context.parameters.require("id", as: RecordID<DeviceRecord>.self), try context.parameters.require("note", as: RecordID<DeviceNoteRecord>.self))
    }

    @Sendable func add(request: Request, context: SignedInContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let body = context.form["body"]
        do {
            try await services.notes.add(body, to: id, by: context.principal)
        } catch let invalid as NoteStore.Invalid {
            return try await DevicesController(services: services).page(id, request: request, context: context,
                                                                        note: DevicePage.NoteDraft(body: body, error: invalid.message),
                                                                        status: .unprocessableContent)
        }
        return .seeOther(Paths.device(id) + "#notes", flash: .notice("Added the note."), cookies: services.cookies, request: request)
    }

    @Sendable func edit(request: Request, context: SignedInContext) async throws -> Response {
        let (deviceID, noteID) = try Self.ids(context)
        let body = context.form["body"]
        do {
            try await services.notes.edit(noteID, of: deviceID, to: body, by: context.principal)
        } catch let invalid as NoteStore.Invalid {
            let (device, _) = try await services.helpdeskReader.note(noteID, of: deviceID)
            return try editPage(device, noteID: noteID, body: body, error: invalid.message, request: request, context: context)
        }
        return .seeOther(Paths.device(deviceID) + "#notes", flash: .notice("Saved the note."), cookies: services.cookies, request: request)
    }

    @Sendable func delete(request: Request, context: SignedInContext) async throws -> Response {
        let (deviceID, noteID) = try Self.ids(context)
        try await services.notes.remove(noteID, of: deviceID, by: context.principal)
        return .seeOther(Paths.device(deviceID) + "#notes", flash: .notice("Deleted the note."), cookies: services.cookies, request: request)
    }

    private func editPage(_ device: DeviceRecord, noteID: RecordID<DeviceNoteRecord>, body: String, error: String?,
                          request: Request, context: SignedInContext) throws -> Response {
        let view = EditView(deviceName: device.name, devicePath: Paths.device(device.id), action: Paths.deviceNote(device.id, noteID),
                            body: body, error: error)
        return try services.renderer.page("devices/note", title: "Edit note", model: view, request: request, context: context,
                                          status: error == nil ? .ok : .unprocessableContent)
    }
}
