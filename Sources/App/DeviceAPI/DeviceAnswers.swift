import Domain
import Foundation

/// What `POST /api/v1/device/beacon` answers: the state the console now shows for the device.
struct BeaconAnswer: APIAnswer {
    let deviceCompliance: ComplianceState
    let enrollment: StatusBeacon.Enrollment
}

/// What `GET /api/v1/device/commands` answers: the commands waiting, oldest first.
struct PendingCommands: APIAnswer {
    let commands: [CommandEnvelope]
}

/// Apple's command envelope: `{CommandUUID, Command: {RequestType, …}, Status}`. A command's
/// fields are there only for the request types that read them.
struct CommandEnvelope: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "CommandEnvelope"
    let uuid: String
    let command: Command
    let status: String

    struct Command: Codable, Sendable {
        let requestType: DeviceCommand.RequestType
        var identifiers: [String]?
        var deleteFeedback: Bool?
        var captureMinutes: Int?
        var profileName: String?

        enum CodingKeys: String, CodingKey {
            case requestType = "RequestType", identifiers = "Identifiers", deleteFeedback = "DeleteFeedback"
            case captureMinutes = "CaptureMinutes", profileName = "ProfileName"
        }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case uuid = "CommandUUID", command = "Command", status = "Status"
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        // The status before this hand-out: new, sent before without an answer, or put off.
        field == .status ? .oneOfStrings(CommandStatus.waiting.map(\.protocolName)) : nil
    }

    /// The envelope of a command being handed out, whose status before was `previous`.
    init(_ record: DeviceCommandRecord, previous: CommandStatus) {
        uuid = record.uuid
        status = previous.protocolName
        let parameters = record.parameters
        var command = Command(requestType: record.requestType)
        switch record.requestType {
        case .managedApplicationFeedback:
            command.identifiers = parameters.apps
            command.deleteFeedback = parameters.deleteFeedback
        case .requestLogs:
            command.captureMinutes = parameters.captureMinutes
        case .installProfile, .removeProfile:
            command.profileName = parameters.profileName ?? ""
        default:
            break
        }
        self.command = command
    }
}

/// What `POST /api/v1/device/commands/{uuid}` answers: the command as recorded.
struct CommandReplyAnswer: APIAnswer {
    let uuid: String
    let status: String

    enum CodingKeys: String, CodingKey {
        case uuid = "CommandUUID", status = "Status"
    }
}

/// What `POST /api/v1/device/logs` answers.
struct StoredLines: APIAnswer {
    let stored: Int
}

extension StatusBeacon.Enrollment: DocumentedEnum {}
