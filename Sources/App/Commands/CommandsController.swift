import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// A person's commands to a device from its page or the simulator: queue one, take back a
/// waiting one, empty the queue. A refused form comes back on the page it was sent from.
struct CommandsController {
    let commands: CommandQueue
    let cookies: CookieJar
    /// The two pages that hold the command form.
    let devicePage: DevicesController
    let simulatorPage: SimulatorController

    func register(on routes: SecuredRoutes) {
        routes.on(Site.Devices.queueCommand, use: queue)
        routes.on(Site.Devices.cancelCommand, use: cancel)
        routes.on(Site.Devices.clearCommands, use: clear)
    }

    @Sendable func queue(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let user = context.user
        let back = Self.back(context, device: id)
        var form = CommandForm(context.form)
        if let type = DeviceCommand.RequestType(rawValue: form.requestType), !user.role.includes(type.role) {
            throw AccessDenied.insufficientRole
        }
        let target: CommandDraft.Target
        do {
            target = try await commands.target(id)
        } catch CommandQueue.Refusal.deviceUnenrolled {
            return .seeOther(back, flash: .error("The device removed its MDM profile: no command reaches it until it enrolls again."),
                             cookies: cookies, request: request)
        }
        guard let command = form.validCommand(for: target) else {
            if back == Site.Simulator.show.link(id) {
                return try await simulatorPage.page(id, request: request, context: context, commandForm: form, status: .unprocessableContent)
            }
            return try await devicePage.page(id, request: request, context: context, commandForm: form, status: .unprocessableContent)
        }
        try await commands.enqueue(command, for: id, by: user)
        return .seeOther(back, flash: .notice("Queued: \(command.summary). The device answers at its next check-in."),
                         cookies: cookies, request: request)
    }

    /// Whoever may send a command may take it back.
    @Sendable func cancel(_ id: RecordID<DeviceRecord>, _ uuid: String, request: Request, context: SignedInContext) async throws -> Response {
        let back = Self.back(context, device: id)
        let flash: Flash
        do {
            let cancelled = try await commands.cancel(uuid, of: id, by: context.user)
            flash = .notice("Cancelled: \(cancelled.command.summary).")
        } catch CommandQueue.Refusal.unknownCommand {
            throw HTTPError(.notFound)
        } catch CommandQueue.Refusal.progress(.finished(let status)) {
            flash = .error("That command is no longer waiting: it is \(status.displayName.lowercased()).")
        }
        return .seeOther(back, flash: flash, cookies: cookies, request: request)
    }

    @Sendable func clear(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let count = try await commands.clear(id, by: context.user)
        let flash: Flash = count == 0 ? .notice("No command was waiting.")
            : .notice("Cancelled \(count) waiting command\(count == 1 ? "" : "s").")
        return .seeOther(Self.back(context, device: id), flash: flash, cookies: cookies, request: request)
    }

    /// The page the form was sent from: the device page unless it names another of this site.
    private static func back(_ context: SignedInContext, device: RecordID<DeviceRecord>) -> String {
        LocalPath.sanitised(context.form["back"], fallback: Site.Devices.show.link(device))
    }
}
