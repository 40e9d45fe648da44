import Domain
import Foundation

/// `POST /api/v1/devices/{id}/commands`: what the device page's command form sends, typed.
struct CommandBody: APIRequestBody {
    let requestType: String
    let apps: [String]?
    let deleteFeedback: Bool?
    let captureMinutes: Int?
    let message: String?
    let phoneNumber: String?
    let footnote: String?
    let confirmName: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case requestType, apps, deleteFeedback, captureMinutes, message, phoneNumber, footnote, confirmName
    }

    static var captureMinutes: ClosedRange<Int> { CommandDraft.captureMinutesRange }

    /// The command for the device, or a 422 naming the field, by the same rules as the form
    /// (`CommandDraft`). A field the command does not read is refused, so a mistake is never
    /// silently ignored.
    func command(for target: CommandDraft.Target) throws -> DeviceCommand {
        let offered = DeviceCommand.RequestType.queueable(overMDM: target.overMDM)
        guard let type = DeviceCommand.RequestType(rawValue: requestType), offered.contains(type) else {
            let kind = target.overMDM ? "a device enrolled over MDM" : "a simulated device"
            throw APIRequest.invalid("requestType", "requestType must be one of \(offered.map(\.rawValue).joined(separator: ", ")) for \(kind).")
        }
        let sent: [DeviceCommand.RequestType.Parameter: Bool] = [
            .apps: apps != nil, .deleteFeedback: deleteFeedback != nil, .captureMinutes: captureMinutes != nil, .message: message != nil,
            .phoneNumber: phoneNumber != nil, .footnote: footnote != nil, .confirmName: confirmName != nil,
        ]
        if let unused = DeviceCommand.RequestType.Parameter.allCases.first(where: { sent[$0] == true && !type.parameters.contains($0) }) {
            let readers = unused.readers.map(\.rawValue).joined(separator: " and ")
            throw APIRequest.invalid(unused.rawValue, "\(unused.rawValue) is read only by \(readers), not by \(type.rawValue); leave it out.")
        }
        var draft = CommandDraft(requestType: type)
        // Bundle IDs are trimmed, as every body's are.
        draft.apps = (apps ?? []).map { $0.trimmingWhitespace() }
        draft.deleteFeedback = deleteFeedback ?? false
        draft.captureMinutes = captureMinutes
        (draft.message, draft.phoneNumber, draft.footnote, draft.confirmName) = (message, phoneNumber, footnote, confirmName)
        do {
            return try draft.command(for: target)
        } catch {
            let first = error.problems[0]
            throw APIRequest.invalid(first.field, first.message)
        }
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
        case .requestType: JSONSchema(types: [.string], description: OpenAPIDocument.commandRoles,
                                      values: (Command.queueable + Command.queueableOverMDM.filter { !Command.queueable.contains($0) }).map { .string($0.rawValue) })
        case .apps: JSONSchema(description: "\(readers(.apps)): the apps to ask (empty: every managed app)", maxItems: DeviceCommand.maximumApps,
                               items: OpenAPIDocument.bundleID)
        case .deleteFeedback: JSONSchema(description: "\(readers(.deleteFeedback)): the device deletes the feedback after reporting it", defaultValue: .bool(false))
        case .captureMinutes: JSONSchema(description: "\(readers(.captureMinutes)): capture every level this long (absent or null: send what is kept)",
                                         minimum: captureMinutes.lowerBound, maximum: captureMinutes.upperBound)
        case .message: JSONSchema(types: [.string], description: "\(readers(.message)): what the locked screen says", maxLength: CommandDraft.maximumMessage)
        case .phoneNumber: JSONSchema(types: [.string], description: "\(readers(.phoneNumber)): the number the locked screen offers to call",
                                      maxLength: CommandDraft.maximumPhoneNumber)
        case .footnote: JSONSchema(types: [.string], description: "\(readers(.footnote)): the line under Lost Mode's message", maxLength: CommandDraft.maximumMessage)
        case .confirmName: JSONSchema(types: [.string], description: "\(readers(.confirmName)): the device's name, exactly, to confirm erasing everything on it")
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
        queueable.filter { $0.role == .admin }.map(\.rawValue).joined(separator: ", ")
    }

    static var commandRoles: String {
        let helpdesk = queueable.filter { $0.role == .helpdesk }.map(\.rawValue).joined(separator: ", ")
        let simulated = DeviceCommand.RequestType.queueable.map(\.rawValue).joined(separator: ", ")
        let real = DeviceCommand.RequestType.queueableOverMDM.map(\.rawValue).joined(separator: ", ")
        return "\(helpdesk) need helpdesk; \(adminCommands) admin. A simulated device takes \(simulated); a device enrolled over MDM takes \(real), each where Apple runs it (supervision, iOS version)"
    }

    /// Every command a person may queue for some device.
    private static var queueable: [DeviceCommand.RequestType] {
        DeviceCommand.RequestType.allCases.filter { DeviceCommand.RequestType.queueable.contains($0) || DeviceCommand.RequestType.queueableOverMDM.contains($0) }
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
