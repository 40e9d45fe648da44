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

    /// The command, or a 422 naming the field, by the same rules as the form. A field the
    /// command does not read is refused, so a mistake is never silently ignored.
    func command() throws -> DeviceCommand {
        guard let type = DeviceCommand.RequestType(rawValue: requestType), DeviceCommand.RequestType.queueable.contains(type) else {
            throw APIRequest.invalid("requestType", "requestType must be one of \(DeviceCommand.RequestType.queueable.map(\.rawValue).joined(separator: ", ")).")
        }
        let sent: [DeviceCommand.RequestType.Parameter: Bool] = [.apps: apps != nil, .deleteFeedback: deleteFeedback != nil, .captureMinutes: captureMinutes != nil]
        if let unused = DeviceCommand.RequestType.Parameter.allCases.first(where: { sent[$0] == true && !type.parameters.contains($0) }) {
            let readers = unused.readers.map(\.rawValue).joined(separator: " and ")
            throw APIRequest.invalid(unused.rawValue, "\(unused.rawValue) is read only by \(readers), not by \(type.rawValue); leave it out.")
        }
        if (apps?.count ?? 0) > DeviceCommand.maximumApps {
            throw APIRequest.invalid("apps", "Ask about at most \(DeviceCommand.maximumApps) apps at once.")
        }
        // Bundle IDs are trimmed, as every body's are.
        let apps = (self.apps ?? []).map { $0.trimmingWhitespace() }
        if let (index, problem) = apps.enumerated().lazy.compactMap({ index, app in BundleID.problem(app).map { (index, $0) } }).first {
            throw APIRequest.invalid("apps.\(index)", problem)
        }
        if let minutes = captureMinutes, !(1...1440).contains(minutes) {
            throw APIRequest.invalid("captureMinutes", "captureMinutes must be from 1 to 1440.")
        }
        var command = DeviceCommand(requestType: type)
        if type == .managedApplicationFeedback {
            command.apps = apps
            command.deleteFeedback = deleteFeedback ?? false
        }
        if type == .requestLogs { command.captureMinutes = captureMinutes }
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
