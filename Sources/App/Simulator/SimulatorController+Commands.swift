import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// Queuing a command for a device from its page or the simulator.
extension SimulatorController {
    @Sendable func queueCommand(_ id: RecordID<DeviceRecord>, request: Request, context: SignedInContext) async throws -> Response {
        let user = context.user
        let back = LocalPath.sanitised(context.form["back"], fallback: Site.Devices.show.link(id))
        var form = CommandForm(context.form)
        if let type = DeviceCommand.RequestType(rawValue: form.requestType), !user.role.includes(type.role) {
            throw AccessDenied.insufficientRole
        }
        guard let command = form.validCommand() else {
            // The form is on two pages; show the one it came from again, with the messages.
            if back == Site.Simulator.show.link(id) {
                return try await page(id, request: request, context: context, commandForm: form, status: .unprocessableContent)
            }
            return try await devicePage.page(id, request: request, context: context, commandForm: form,
                                                                  status: .unprocessableContent)
        }
        try await deviceChannel.queue(command, for: id, by: user)
        return .seeOther(back, flash: .notice("Queued: \(command.summary). The device answers at its next check-in."),
                         cookies: cookies, request: request)
    }
}
