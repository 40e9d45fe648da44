import Domain
import Foundation
import Hummingbird
import Storage

/// The helpdesk workspace for scripts: a device's check-in token (admin), its commands, its
/// feedback history, and notes — with the roles the pages enforce.
struct HelpdeskAPIController {
    let catalog: CatalogService
    let helpdeskReader: HelpdeskReader
    let commands: CommandQueue
    let notes: NoteStore
    static let feedbackLimit = 500

    static let issueToken = Endpoint<RecordID<DeviceRecord>, NoBody, IssuedToken>(
        .post, "/api/v1/devices/{id}/token", role: .admin,
        "Issue the device a new check-in token, shown this once; the old token stops working", success: .created)
    static let listCommands = Endpoint<RecordID<DeviceRecord>, NoBody, CommandList>(
        .get, "/api/v1/devices/{id}/commands", role: .helpdesk, "The device's latest commands, newest first, with their answers", parameters: ["limit"])
    /// The route asks for helpdesk; each command's own role is checked once its type is read.
    static let queueCommand = Endpoint<RecordID<DeviceRecord>, CommandBody, CommandAnswer>(
        .post, "/api/v1/devices/{id}/commands", role: .helpdesk,
        "Queue a command for the device, to run at its next check-in (admin only: \(OpenAPIDocument.adminCommands))",
        success: .created,
        otherAnswers: [403: "forbidden: the token's role does not allow this command (\(OpenAPIDocument.commandRoles))",
                       409: "device_unenrolled: a real device that removed its MDM profile takes no command"])
    /// The route asks for helpdesk; taking a command back needs the role that may send it.
    static let cancelCommand = Endpoint<PathPair<RecordID<DeviceRecord>, String>, NoBody, CommandAnswer>(
        .delete, "/api/v1/devices/{id}/commands/{uuid}", role: .helpdesk,
        "Cancel a waiting command (queued, sent or put off with NotNow); one already sent may still run on the device. Answers the command as cancelled",
        otherAnswers: [403: "forbidden: the token's role may not send (so may not cancel) this command",
                       404: "unknown_command", 409: "command_finished: the command is no longer waiting"])
    static let feedback = Endpoint<RecordID<DeviceRecord>, NoBody, FeedbackHistory>(
        .get, "/api/v1/devices/{id}/feedback", role: .helpdesk, "Every fetch of an app's managed feedback on the device, newest first",
        parameters: ["feedback app"], otherAnswers: [400: "invalid_query: app is missing or not a bundle ID"])
    static let listNotes = Endpoint<RecordID<DeviceRecord>, NoBody, NoteList>(
        .get, "/api/v1/devices/{id}/notes", role: .helpdesk, "The device's notes, newest first")
    static let addNote = Endpoint<RecordID<DeviceRecord>, NoteBody, NoteAnswer>(
        .post, "/api/v1/devices/{id}/notes", role: .helpdesk, "Write a note on the device (audited)", success: .created)
    static let editNote = Endpoint<PathPair<RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>>, NoteBody, NoteAnswer>(
        .put, "/api/v1/devices/{id}/notes/{note}", role: .helpdesk, "Change a note: its author or an admin (audited)")
    static let removeNote = Endpoint<PathPair<RecordID<DeviceRecord>, RecordID<DeviceNoteRecord>>, NoBody, NoContent>(
        .delete, "/api/v1/devices/{id}/notes/{note}", role: .helpdesk, "Remove a note: its author or an admin (audited)",
        success: .noContent)

    func register(on routes: SecuredRoutes) {
        routes.handle(Self.issueToken) { id, _, context in
            let (token, hash) = DeviceTokens.mint()
            try await catalog.replaceToken(of: id, withHash: hash, by: Actor(context.user))
            return Reply(IssuedToken(deviceID: id, token: token))
        }
        routes.handle(Self.listCommands) { id, request, context in
            let commands = try await helpdeskReader.commands(of: id, limit: APIQuery.limit(of: request))
            return Reply(CommandList(commands: commands.map(CommandAnswer.init)))
        }
        routes.handle(Self.queueCommand) { id, body, request, context in
            let target: CommandDraft.Target
            do {
                target = try await commands.target(id)
            } catch CommandQueue.Refusal.deviceUnenrolled {
                throw APIError(status: .conflict, code: .deviceUnenrolled, message: "The device removed its MDM profile: no command reaches it until it enrolls again.")
            }
            let command = try body.command(for: target)
            try SecuredRoutes.authorize(command.requestType.role, request: request, context: context)
            return Reply(CommandAnswer(try await commands.enqueue(command, for: id, by: context.user)))
        }
        routes.handle(Self.cancelCommand) { id, uuid, request, context in
            do {
                return Reply(CommandAnswer(try await commands.cancel(uuid, of: id, by: context.user)))
            } catch CommandQueue.Refusal.unknownCommand {
                throw APIError(status: .notFound, code: .unknownCommand, message: "The device has no command \(uuid.clipped(to: 60)).", field: "uuid")
            } catch CommandQueue.Refusal.progress(.finished(let status)) {
                throw APIError(status: .conflict, code: .commandFinished, message: "The command is no longer waiting: it is \(status.displayName.lowercased()).")
            }
        }
        routes.handle(Self.feedback) { id, request, _ in Reply(try await feedback(of: id, request)) }
        routes.handle(Self.listNotes) { id, _, _ in
            Reply(NoteList(notes: try await helpdeskReader.notes(of: id).map(NoteAnswer.init)))
        }
        routes.handle(Self.addNote) { id, body, _, context in
            let note = try await Self.refusingInvalid { try await self.notes.add(body.body, to: id, by: context.principal) }
            return Reply(NoteAnswer(note))
        }
        routes.handle(Self.editNote) { device, note, body, _, context in
            try await Self.refusingInvalid { try await self.notes.edit(note, of: device, to: body.body, by: context.principal) }
            let (_, saved) = try await helpdeskReader.note(note, of: device)
            return Reply(NoteAnswer(saved))
        }
        routes.handle(Self.removeNote) { device, note, _, context in
            try await self.notes.remove(note, of: device, by: context.principal)
            return .done
        }
    }

    /// A note the store refuses is a 422 on its body.
    private static func refusingInvalid<T>(_ change: () async throws -> T) async throws -> T {
        do {
            return try await change()
        } catch let invalid as NoteStore.Invalid {
            throw APIRequest.invalid("body", invalid.message)
        }
    }

    private func feedback(of id: RecordID<DeviceRecord>, _ request: Request) async throws -> FeedbackHistory {
        guard let app = request.uri.formParameters["app"].map({ String($0).trimmingWhitespace() }),
              BundleID.problem(app) == nil else {
            throw APIError(status: .badRequest, code: .invalidQuery, message: "app must be the bundle ID of the app whose feedback to read.", field: "app")
        }
        let found = try await helpdeskReader.feedbackHistory(id, app: app, limit: Self.feedbackLimit)
        return FeedbackHistory(app: app, feedback: found.reports.reversed().map {
            FeedbackHistory.Report(fetchedAt: $0.fetchedAt, wasReset: $0.wasReset, values: $0.feedback)
        })
    }
}
