import Domain
import Foundation

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

        enum CodingKeys: String, CodingKey, CaseIterable {
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

        enum CodingKeys: String, CodingKey, CaseIterable {
            case Identifier, Feedback
        }
    }

    let Status: String
    let ErrorChain: [ErrorItem]?
    let ManagedApplicationFeedback: [FeedbackItem]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case Status, ErrorChain, ManagedApplicationFeedback
    }

    /// A feedback dictionary holds at most this many keys.
    static let maximumFeedbackKeys = 200
    /// Feedback is counters and statuses: a key or a text value is short, and a reply's
    /// feedback as a whole is bounded, so no reply can grow the device page without limit.
    static let maximumFeedbackKeyLength = 128
    static let maximumFeedbackTextLength = 1_000
    static let maximumFeedbackCharacters = 64 * 1_024
    /// The answer shown for a command: the error chain, however long, within this.
    static let maximumSummary = 2_000

    /// The reported feedback by app; nil when the reply carries none. Refuses an identifier
    /// that is not a bundle ID, a dictionary with too many keys, and text no stored text may hold.
    func feedback() throws -> [String: [String: JSONValue]]? {
        guard let items = ManagedApplicationFeedback else { return nil }
        if items.count > DeviceCommand.maximumApps {
            throw APIRequest.invalid("ManagedApplicationFeedback", "A reply carries feedback of at most \(DeviceCommand.maximumApps) apps.")
        }
        var report: [String: [String: JSONValue]] = [:]
        var characters = 0
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
            for (key, value) in feedback {
                let field = "ManagedApplicationFeedback.\(index).Feedback.\(key.clipped(to: 80))"
                if PlainText.length(key) > Self.maximumFeedbackKeyLength {
                    throw APIRequest.invalid(field, "A feedback key has at most \(Self.maximumFeedbackKeyLength) characters.")
                }
                if case .string(let text) = value {
                    guard PlainText.length(text) <= Self.maximumFeedbackTextLength else {
                        throw APIRequest.invalid(field, "A feedback value has at most \(Self.maximumFeedbackTextLength.formatted()) characters.")
                    }
                    characters += PlainText.length(text)
                }
                characters += PlainText.length(key)
            }
            if characters > Self.maximumFeedbackCharacters {
                throw APIRequest.invalid("ManagedApplicationFeedback", "A reply's feedback holds at most \(Self.maximumFeedbackCharacters / 1_024) K characters in all; send fewer keys.")
            }
            report[item.Identifier] = feedback
        }
        return report
    }

    static var refusesUnknownFields: Bool { false }

    /// Acknowledged, Error, CommandFormatError or NotNow: what a device reports.
    func status() throws -> CommandStatus {
        guard let status = CommandStatus(report: Status) else {
            throw APIRequest.invalid("Status", "Status must be " + CommandStatus.reports.map(\.protocolName).formatted(.list(type: .or)) + ".")
        }
        return status
    }

    /// The chain's descriptions in order, within `maximumSummary` characters whatever the
    /// chain's length, saying how many did not fit.
    func summary(for status: CommandStatus) -> String {
        let errors = (ErrorChain ?? []).compactMap(\.LocalizedDescription).map { $0.clipped(to: 500) }
        guard !errors.isEmpty else { return "Reported \(status.protocolName) by the device." }
        let room = Self.maximumSummary - 40  // for the count of the rest
        var shown: [String] = []
        var length = 0
        for error in errors {
            length += error.count + (shown.isEmpty ? 0 : 2)
            guard length <= room else { break }
            shown.append(error)
        }
        let left = errors.count - shown.count
        return shown.joined(separator: "; ") + (left == 0 ? "" : "; and \(left.formatted()) more error\(left == 1 ? "" : "s")")
    }
}
