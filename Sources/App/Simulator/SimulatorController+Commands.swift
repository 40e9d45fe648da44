import Domain
import Foundation
import Hummingbird
import NIOCore
import Storage

/// Queuing a command for a device from its page or the simulator.
extension SimulatorController {
    @Sendable func queueCommand(request: Request, context: AppRequestContext) async throws -> Response {
        let id = try context.parameters.require("id", as: RecordID<DeviceRecord>.self)
        let user = try context.requireUser()
        let back = LocalPath.sanitised(context.form["back"], fallback: "/devices/\(id)")
        var form = CommandForm(context.form)
        if let type = DeviceCommand.RequestType(rawValue: form.requestType), !user.role.includes(type.role) {
            throw AccessDenied.insufficientRole
        }
        guard let command = form.validCommand() else {
            // The form is on two pages; show the one it came from again, with the messages.
            if back.hasPrefix("/simulator/") {
                return try await page(id, request: request, context: context, commandForm: form, status: .unprocessableContent)
            }
            return try await DevicesController(services: services).page(id, request: request, context: context, commandForm: form,
                                                                  status: .unprocessableContent)
        }
        let now = services.now
        try await services.database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            _ = try connection.insert(DeviceCommandRecord(
                id: nil, uuid: UUID().uuidString, deviceID: id, requestType: command.requestType, parameters: command, status: .queued,
                queuedAt: now, queuedBy: user.email, completedAt: nil, resultSummary: "", result: nil))
            try connection.audit("device.command", subject: device.name, by: Actor(user), after: command.summary, at: now)
        }
        return .seeOther(back, flash: .notice("Queued: \(command.summary). The device answers at its next check-in."),
                         cookies: services.cookies, request: request)
    }
}
