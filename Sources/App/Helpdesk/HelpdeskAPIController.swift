import Domain
import Foundation
import Hummingbird
import Storage

/// The helpdesk workspace for scripts: a device's check-in token (admin), its commands, its
/// feedback history, and notes — with the roles the pages enforce.
struct HelpdeskAPIController {
    let services: Services
    static let feedbackLimit = 500

    func register(on routes: SecuredRoutes) {
        routes.post("/api/v1/devices/{id}/token", role: .admin, use: issueToken)
        routes.get("/api/v1/devices/{id}/commands", role: .helpdesk, use: commands)
        routes.post("/api/v1/devices/{id}/commands", role: .helpdesk, use: queueCommand)
        routes.get("/api/v1/devices/{id}/feedback", role: .helpdesk, use: feedback)
        routes.get("/api/v1/devices/{id}/notes", role: .helpdesk, use: notes)
        routes.post("/api/v1/devices/{id}/notes", role: .helpdesk, use: addNote)
        routes.put("/api/v1/devices/{id}/notes/{note}", role: .helpdesk, use: editNote)
        routes.delete("/api/v1/devices/{id}/notes/{note}", role: .helpdesk) { _, context in
            let (device, note) = try Self.noteIDs(context)
            try await services.notes.remove(note, of: device, by: context.principal)
            return Response(status: .noContent)
        }
    }

    private static func deviceID(_ context: SignedInContext) throws -> RecordID<DeviceRecord> {
        try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
    }

    private static func noteIDs(_ context: SignedInContext) throws -> (RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>) {
        (try deviceID(context), try context.parameters.require("note", as: RecordID<DeviceNoteRecord>.self))
    }

    /// A new check-in token, shown this once; the old one stops working.
    @Sendable func issueToken(request: Request, context: SignedInContext) async throws -> Response {
        let id = try Self.deviceID(context)
        let (token, hash) = DeviceTokens.mint()
        try await services.catalog.replaceToken(of: id, withHash: hash, by: Actor(context.user))
        return try .jsonObject(["deviceID": id.rawValue, "token": token], status: .created)
    }

    @Sendable func commands(request: Request, context: SignedInContext) async throws -> Response {
        let commands = try await services.helpdeskReader.commands(of: try Self.deviceID(context), limit: APIQuery.limit(of: request))
        return try .jsonObject(["commands": commands.map(Self.json)])
    }

    @Sendable func queueCommand(request: Request, context: SignedInContext) async throws -> Response {
        let id = try Self.deviceID(context)
        let command = try await APIRequest.decode(CommandBody.self, from: request).command()
        try SecuredRoutes.authorize(command.requestType.role, request: request, context: context)
        let queued = try await services.deviceChannel.queue(command, for: id, by: context.user)
        return try .jsonObject(Self.json(queued), status: .created)
    }

    @Sendable func feedback(request: Request, context: SignedInContext) async throws -> Response {
        guard let app = request.uri.formParameters["app"].map({ String($0).trimmingWhitespace() }),
              BundleID.problem(app) == nil else {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "app must be the bundle ID of the app whose feedback to read.", field: "app")
        }
        let found = try await services.helpdeskReader.feedbackHistory(try Self.deviceID(context), app: app, limit: Self.feedbackLimit)
        return try .jsonObject(["app": app, "feedback": found.reports.reversed().map { report -> [String: Any] in
            ["fetchedAt": DisplayTime.iso(report.fetchedAt), "wasReset": report.wasReset,
             "values": report.feedback.mapValues(Self.json)]
        }])
    }

    @Sendable func notes(request: Request, context: SignedInContext) async throws -> Response {
        let notes = try await services.helpdeskReader.notes(of: try Self.deviceID(context))
        return try .jsonObject(["notes": notes.map(Self.json)])
    }

    @Sendable func addNote(request: Request, context: SignedInContext) async throws -> Response {
        let id = try Self.deviceID(context)
        let body = try await APIRequest.decode(NoteBody.self, from: request).body
        do {
            let note = try await services.notes.add(body, to: id, by: context.principal)
            return try .jsonObject(Self.json(note), status: .created)
        } catch let invalid as NoteStore.Invalid {
            throw APIRequest.invalid("body", invalid.message)
        }
    }

    @Sendable func editNote(request: Request, context: SignedInContext) async throws -> Response {
        let (device, note) = try Self.noteIDs(context)
        let body = try await APIRequest.decode(NoteBody.self, from: request).body
        do {
            try await services.notes.edit(note, of: device, to: body, by: context.principal)
        } catch let invalid as NoteStore.Invalid {
            throw APIRequest.invalid("body", invalid.message)
        }
        let (_, saved) = try await services.helpdeskReader.note(note, of: device)
        return try .jsonObject(Self.json(saved))
    }

    static func json(_ command: DeviceCommandRecord) -> [String: Any] {
        var json: [String: Any] = ["uuid": command.uuid, "requestType": command.requestType.rawValue, "summary": command.parameters.summary,
                                   "status": command.status.rawValue, "queuedAt": DisplayTime.iso(command.queuedAt), "queuedBy": command.queuedBy,
                                   "answer": command.resultSummary]
        json["completedAt"] = command.completedAt.map { DisplayTime.iso($0) as Any } ?? NSNull()
        return json
    }

    static func json(_ note: DeviceNoteRecord) -> [String: Any] {
        ["id": note.id.rawValue, "author": note.authorEmail, "body": note.body,
         "createdAt": DisplayTime.iso(note.createdAt), "updatedAt": DisplayTime.iso(note.updatedAt)]
    }

    static func json(_ value: JSONValue) -> Any {
        switch value {
        case .number(let number): number
        case .bool(let flag): flag
        case .string(let text): text
        case .null: NSNull()
        case .array(let items): items.map(json)
        case .object(let fields): fields.mapValues(json)
        }
    }
}
