import Domain
import Foundation

/// `POST /api/v1/devices/{id}/commands`: what the device page's command form sends, typed.
struct CommandBody: APIRequestBody {
    let requestType: String
    let apps: [String]?
    let deleteFeedback: Bool?
    let captureMinutes: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case requestType, apps, deleteFeedback, captureMinutes
    }

    /// The command, or a 422 naming the field, by the same rules as the form.
    func command() throws -> DeviceCommand {
        guard let type = DeviceCommand.RequestType(rawValue: requestType), DeviceCommand.RequestType.queueable.contains(type) else {
            throw APIRequest.invalid("requestType", "requestType must be one of \(DeviceCommand.RequestType.queueable.map(\.rawValue).joined(separator: ", ")).")
        }
        var command = DeviceCommand(requestType: type)
        if type == .managedApplicationFeedback {
            // Bundle IDs are trimmed, as every body's are.
            command.apps = (apps ?? []).map { $0.trimmingWhitespace() }
            if let (index, problem) = command.apps.enumerated().lazy.compactMap({ index, app in BundleID.problem(app).map { (index, $0) } }).first {
                throw APIRequest.invalid("apps.\(index)", problem)
            }
            command.deleteFeedback = deleteFeedback ?? false
        }
        if type == .requestLogs, let minutes = captureMinutes {
            guard (1...1440).contains(minutes) else { throw APIRequest.invalid("captureMinutes", "captureMinutes must be from 1 to 1440.") }
            command.captureMinutes = minutes
        }
        return command
    }
}

/// `POST /api/v1/devices/{id}/notes` and `PUT …/notes/{note}`: the note's Markdown.
struct NoteBody: APIRequestBody {
    let body: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case body
    }
}
