import Domain

/// A device's answer to a command (`POST /api/v1/device/commands/{uuid}`), in MDM's shape.
/// Devices send more than the console reads (UDID, CommandUUID, command results), as MDM
/// clients do, so unknown keys are ignored here, whatever they hold: the one API body where they are.
struct CommandReplyBody: APIRequestBody {
    /// One error of the chain. Its texts are kept (the description becomes the command's
    /// answer), so they must be plain text like any other text the console stores; its other
    /// keys (USEnglishDescription, …) are ignored like the body's.
    struct ErrorItem: Decodable, Sendable {
        let ErrorCode: Int?
        let ErrorDomain: String?
        let LocalizedDescription: String?

        private enum CodingKeys: String, CodingKey {
            case ErrorCode, ErrorDomain, LocalizedDescription
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            ErrorCode = try container.decodeIfPresent(Int.self, forKey: .ErrorCode)
            ErrorDomain = try Self.plainText(.ErrorDomain, in: container)
            LocalizedDescription = try Self.plainText(.LocalizedDescription, in: container)
        }

        private static func plainText(_ key: CodingKeys, in container: KeyedDecodingContainer<CodingKeys>) throws -> String? {
            let text = try container.decodeIfPresent(String.self, forKey: key)
            if let text, PlainText.problem(text, lines: .multiple) != nil {
                throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: APIRequest.controlCharacterRule)
            }
            return text
        }
    }

    /// The answer to ManagedApplicationFeedback: each app's dictionary, as MDM clients send it.
    struct FeedbackItem: Decodable, Sendable {
        let Identifier: String
        let Feedback: [String: JSONValue]?
    }

    let Status: String
    let ErrorChain: [ErrorItem]?
    let ManagedApplicationFeedback: [FeedbackItem]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case Status, ErrorChain, ManagedApplicationFeedback
    }

    /// A feedback dictionary holds at most this many keys.
    static let maximumFeedbackKeys = 200

    /// The reported feedback by app; nil when the reply carries none. Refuses an identifier
    /// that is not a bundle ID, a dictionary with too many keys, and text no stored text may hold.
    func feedback() throws -> [String: [String: JSONValue]]? {
        guard let items = ManagedApplicationFeedback else { return nil }
        var report: [String: [String: JSONValue]] = [:]
        for (index, item) in items.enumerated() {
            if let problem = BundleID.problem(item.Identifier) {
                throw APIRequest.invalid("ManagedApplicationFeedback.\(index).Identifier", problem)
            }
            let feedback = item.Feedback ?? [:]
            if feedback.count > Self.maximumFeedbackKeys {
                throw APIRequest.invalid("ManagedApplicationFeedback.\(index).Feedback", "A feedback dictionary holds at most \(Self.maximumFeedbackKeys) keys.")
            }
            // Counters and statuses: the console keeps and charts flat values, as the schema says.
            if let nested = feedback.first(where: { key, value in
                switch value { case .bool, .number, .string: false; default: true }
            }) {
                throw APIRequest.invalid("ManagedApplicationFeedback.\(index).Feedback.\(nested.key)", "Feedback values are numbers, text or true/false.")
            }
            if let path = JSONValue.object(feedback).pathOfControlCharacter() {
                throw APIRequest.invalid("ManagedApplicationFeedback.\(index).Feedback.\(path)", APIRequest.controlCharacterRule)
            }
            report[item.Identifier] = feedback
        }
        return report
    }

    static var refusesUnknownFields: Bool { false }

    /// Acknowledged, Error or NotNow; a device never reports a command as still queued.
    func status() throws -> CommandStatus {
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
    let version: String?
    let jailbroken: Bool?
    let url: String?
    let certificate: String?
    let address: String?
    let control: String?
    let feature: String?
    let on: Bool?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case action, app, mode, confirm, passcode, minutes, latitude, longitude, network, thirdParty, text, level, message, count, version, jailbroken
        case url, certificate, address, control, feature, on
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
        case .version: return version
        case .jailbroken: return jailbroken.map { $0 ? "true" : "false" }
        case .url: return url
        case .certificate: return certificate
        case .address: return address
        case .control: return control
        case .feature: return feature
        case .on: return on.map { $0 ? "true" : "false" }
        }
    }
}
