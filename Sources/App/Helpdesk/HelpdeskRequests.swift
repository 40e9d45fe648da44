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

    /// How long a device may be asked to capture logs: up to a day.
    static let captureMinutes = 1...1440

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
        if let minutes = captureMinutes, !Self.captureMinutes.contains(minutes) {
            throw APIRequest.invalid("captureMinutes", "captureMinutes must be from \(Self.captureMinutes.lowerBound) to \(Self.captureMinutes.upperBound).")
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

// What the document says of each field beyond its type, from the command types themselves:
// which commands exist, who may queue each, and which command reads which field.

extension CommandBody: NamedSchema, DocumentedFields {
    static let schemaName = "CommandInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias Command = DeviceCommand.RequestType
        func readers(_ parameter: Command.Parameter) -> String { parameter.readers.map(\.rawValue).joined(separator: ", ") }
        return switch field {
        case .requestType: JSONSchema(types: [.string], description: OpenAPIDocument.commandRoles, values: Command.queueable.map { .string($0.rawValue) })
        case .apps: JSONSchema(description: "\(readers(.apps)): the apps to ask (empty: every managed app)", maxItems: DeviceCommand.maximumApps,
                               items: OpenAPIDocument.bundleID)
        case .deleteFeedback: JSONSchema(description: "\(readers(.deleteFeedback)): the device deletes the feedback after reporting it", defaultValue: .bool(false))
        case .captureMinutes: JSONSchema(description: "\(readers(.captureMinutes)): capture every level this long (absent or null: send what is kept)",
                                         minimum: captureMinutes.lowerBound, maximum: captureMinutes.upperBound)
        }
    }

    /// A field only some commands read is absent or null on the others: the console refuses
    /// it there rather than ignore it, and says so here, where a JSON Schema can.
    static var rulesAcrossFields: [JSONSchema] {
        DeviceCommand.RequestType.Parameter.allCases.map { parameter in
            var otherCommand = JSONSchema()
            otherCommand.properties = ["requestType": JSONSchema(not: JSONSchema(values: parameter.readers.map { .string($0.rawValue) }))]
            var absent = JSONSchema()
            absent.properties = [parameter.rawValue: .of(.null)]
            var rule = JSONSchema()
            rule.condition = otherCommand
            rule.then = absent
            return rule
        }
    }
}

/// Who may queue which command, said from `DeviceCommand.RequestType.role`, which the
/// route enforces, so the document cannot drift from it.
extension OpenAPIDocument {
    static var adminCommands: String {
        DeviceCommand.RequestType.queueable.filter { $0.role == .admin }.map(\.rawValue).joined(separator: ", ")
    }

    static var commandRoles: String {
        let helpdesk = DeviceCommand.RequestType.queueable.filter { $0.role == .helpdesk }.map(\.rawValue).joined(separator: ", ")
        return "\(helpdesk) need helpdesk; \(adminCommands) admin"
    }
}

extension NoteBody: NamedSchema, DocumentedFields {
    static let schemaName = "NoteInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        let (text, space) = (OpenAPIDocument.controlsBesideLineBreaks, OpenAPIDocument.whitespace)
        return JSONSchema(types: [.string], description: "Markdown, rendered sanitised; not only spaces; tab and line breaks allowed, other control characters not",
                          pattern: "^[^\(text)]*[^\(space)\(text)][^\(text)]*$", minLength: 1, maxLength: NoteStore.maximumLength)
    }
}
