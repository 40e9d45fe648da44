import Domain
import Foundation
import Hummingbird
import Storage

/// Notes on a device page: written by anyone who reads logs, changed or removed by their
/// author or an admin. A refused note comes back on its page with the text and a message.
struct DeviceNotesController {
    let helpdeskReader: HelpdeskReader
    let notes: NoteStore
    let cookies: CookieJar
    let renderer: PageRenderer
    let devicePage: DevicesController

    struct EditView {
        let deviceName: String
        let devicePath: String
        let action: String
        let body: String
        let error: String?
    }

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.addNote, use: add)
        routes.on(Site.Devices.editNote) { deviceID, noteID, request, context in
            let (device, note) = try await helpdeskReader.note(noteID, of: deviceID)
            guard NoteStore.mayChange(note, by: context.principal) else { throw AccessDenied.insufficientRole }
            return try editPage(device, noteID: noteID, body: note.body, error: nil, request: request, context: context)
        }
        routes.on(Site.Devices.updateNote, use: edit)
        routes.on(Site.Devices.removeNote, use: delete)
    }

    @Sendable func add(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let body = context.form["body"]
        do {
            try await notes.add(body, to: id, by: context.principal)
        } catch let invalid as NoteStore.Invalid {
            return try await devicePage.page(id, request: request, context: context,
                                                                        note: DevicePage.NoteDraft(body: body, error: invalid.message),
                                                                        status: .unprocessableContent)
        }
        return .seeOther(Site.Devices.show.link(id) + "#notes", flash: .notice("Added the note."), cookies: cookies, request: request)
    }

    @Sendable func edit(_ deviceID: RecordID<DeviceRecord>, _ noteID: RecordID<DeviceNoteRecord>, request: Request,
                        context: SignedInContext) async throws -> Response {
        let body = context.form["body"]
        do {
            try await notes.edit(noteID, of: deviceID, to: body, by: context.principal)
        } catch let invalid as NoteStore.Invalid {
            let (device, _) = try await helpdeskReader.note(noteID, of: deviceID)
            return try editPage(device, noteID: noteID, body: body, error: invalid.message, request: request, context: context)
        }
        return .seeOther(Site.Devices.show.link(deviceID) + "#notes", flash: .notice("Saved the note."), cookies: cookies, request: request)
    }

    @Sendable func delete(_ deviceID: RecordID<DeviceRecord>, _ noteID: RecordID<DeviceNoteRecord>, request: Request,
                          context: SignedInContext) async throws -> Response {
        try await notes.remove(noteID, of: deviceID, by: context.principal)
        return .seeOther(Site.Devices.show.link(deviceID) + "#notes", flash: .notice("Deleted the note."), cookies: cookies, request: request)
    }

    private func editPage(_ device: DeviceRecord, noteID: RecordID<DeviceNoteRecord>, body: String, error: String?,
                          request: Request, context: SignedInContext) throws -> Response {
        let view = EditView(deviceName: device.name, devicePath: Site.Devices.show.link(device.id), action: Site.Devices.updateNote.link(device.id, noteID),
                            body: body, error: error)
        return try renderer.page("devices/note", title: "Edit note", model: view, request: request, context: context,
                                          status: error == nil ? .ok : .unprocessableContent)
    }
}
