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
        guard let type = DeviceCommand.RequestType(rawValue: context.form["requestType"]), DeviceCommand.RequestType.queueable.contains(type) else {
            return .seeOther(back, flash: .error("Choose a command from the list."), cookies: services.cookies, request: request)
        }
        guard user.role.includes(type.role) else { throw AccessDenied.insufficientRole }
        var command = DeviceCommand(requestType: type)
        switch type {
        case .managedApplicationFeedback:
            command.apps = context.form["apps"].split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            if let problem = command.apps.lazy.compactMap(BundleID.problem).first {
                return .seeOther(back, flash: .error(problem), cookies: services.cookies, request: request)
            }
            command.deleteFeedback = context.form["deleteFeedback"] == "on"
        case .requestLogs:
            let minutes = context.form["captureMinutes"].trimmingWhitespace()
            if !minutes.isEmpty {
                guard let value = Int(minutes), (1...1440).contains(value) else {
                    return .seeOther(back, flash: .error("Capture for 1 to 1,440 minutes, or leave it empty to send what is kept."),
                                     cookies: services.cookies, request: request)
                }
                command.captureMinutes = value
            }
        default:
            break
        }
        let now = services.now
        let queued = command
        try services.database.write { connection in
            let device = try connection.require(DeviceRecord.self, id: id)
            _ = try connection.insert(DeviceCommandRecord(
                id: nil, uuid: UUID().uuidString, deviceID: id, requestType: type, parameters: queued, status: .queued,
                queuedAt: now, queuedBy: user.email, completedAt: nil, resultSummary: "", result: nil))
            try connection.audit("device.command", subject: device.name, by: Actor(user), after: queued.summary, at: now)
        }
        return .seeOther(back, flash: .notice("Queued: \(command.summary). The device answers at its next check-in."),
                         cookies: services.cookies, request: request)
    }
}
