import Domain

/// A device's answer to a command (`POST /api/v1/device/commands/{uuid}`), in MDM's shape.
/// Devices send more than the console reads (UDID, CommandUUID, command results), as MDM
/// clients do, so unknown keys are ignored here, whatever they hold: the one API body where they are.
struct CommandReplyBody: APIRequestBody {
    struct ErrorItem: Decodable, Sendable {
        let ErrorCode: Int?
        let ErrorDomain: String?
        let LocalizedDescription: String?
    }

    let Status: String
    let ErrorChain: [ErrorItem]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case Status, ErrorChain
    }

    static var refusesUnknownFields: Bool { false }

    /// Acknowledged, Error or NotNow; a device never reports a command as still queued. The
    /// error texts the console reads must be plain text like any other it keeps.
    func status() throws -> CommandStatus {
        for (index, item) in (ErrorChain ?? []).enumerated() {
            for (key, text) in [("ErrorDomain", item.ErrorDomain), ("LocalizedDescription", item.LocalizedDescription)] {
                if let text, let problem = PlainText.problem(text, lines: .multiple) {
                    throw APIRequest.invalid("ErrorChain.\(index).\(key)", "ErrorChain.\(index).\(key): \(problem)")
                }
            }
        }
        guard let status = CommandStatus.allCases.first(where: { $0.mdmName == Status }), status != .queued else {
            throw APIRequest.invalid("Status", "Status must be Acknowledged, Error or NotNow.")
        }
        return status
    }

    func summary(for status: CommandStatus) -> String {
        let errors = (ErrorChain ?? []).compactMap(\.LocalizedDescription).map { String($0.prefix(500)) }
        return errors.isEmpty ? "Reported \(status.mdmName) by the device." : errors.joined(separator: "; ")
    }
}

/// `POST /api/v1/simulator/{udid}/actions`: the action and the fields it needs, typed, read
/// by the same `SimulatorActionParser` as the page's forms.
struct SimulatorActionBody: APIRequestBody {
    let action: String
    let app: String?
    let mode: String?
    let confirm: Bool?
    let passcode: String?
    let minutes: Int?
    let latitude: Double?
    let longitude: Double?
    let network: String?
    let thirdParty: Bool?
    let text: String?
    let level: String?
    let message: String?
    let count: Int?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action, app, mode, confirm, passcode, minutes, latitude, longitude, network, thirdParty, text, level, message, count
    }

    /// A field as the parser reads it from a form: text, or nil when not sent.
    func field(_ name: String) -> String? {
        guard let key = CodingKeys(rawValue: name) else { return nil }
        switch key {
        case .action: return action
        case .app: return app
        case .mode: return mode
        case .confirm: return confirm.map { $0 ? "true" : "false" }
        case .passcode: return passcode
        case .minutes: return minutes.map(String.init)
        case .latitude: return latitude.map { String($0) }
        case .longitude: return longitude.map { String($0) }
        case .network: return network
        case .thirdParty: return thirdParty.map { $0 ? "true" : "false" }
        case .text: return text
        case .level: return level
        case .message: return message
        case .count: return count.map(String.init)
        }
    }
}
