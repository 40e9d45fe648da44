/// What a device sends on the command endpoint: a report on the command it was given
/// (`CommandUUID` with its `Status`), or `Idle` — nothing to report, anything for me? The
/// whole body is kept, as the answer's data (DeviceInformation's QueryResponses, a profile
/// list) is shown from it.
public struct CommandReportMessage: Equatable, Sendable {
    public enum Report: Equatable, Sendable {
        case idle
        /// The status a device reports, with the command it concerns.
        case status(CommandStatus, commandUUID: String)
    }

    /// One error of an `ErrorChain`, as the device described it.
    public struct ChainedError: Equatable, Sendable {
        public let code: Int?
        public let domain: String?
        public let description: String?
    }

    public let report: Report
    public let enrollment: MDMEnrollmentID
    public let errorChain: [ChainedError]
    public let body: PropertyList

    public static func read(_ body: PropertyList) throws(MDMMessageProblem) -> CommandReportMessage {
        let fields = try MDMFields(body)
        let word = try fields.requiredString("Status")
        let report: Report
        if word == "Idle" {
            report = .idle
        } else if let status = CommandStatus(report: word) {
            report = .status(status, commandUUID: try fields.requiredString("CommandUUID"))
        } else {
            throw MDMMessageProblem(key: "Status", "must be Idle, " + CommandStatus.reports.map(\.protocolName).joined(separator: ", "))
        }
        return CommandReportMessage(report: report, enrollment: try fields.enrollment(), errorChain: try chain(body["ErrorChain"]), body: body)
    }

    private static func chain(_ value: PropertyList?) throws(MDMMessageProblem) -> [ChainedError] {
        guard let value else { return [] }
        guard case .array(let items) = value else { throw MDMMessageProblem(key: "ErrorChain", "must be an array") }
        var chain: [ChainedError] = []
        for (index, item) in items.enumerated() {
            guard case .dictionary = item else { throw MDMMessageProblem(key: "ErrorChain.\(index)", "must be a dictionary") }
            let fields = try MDMFields(item)
            do throws(MDMMessageProblem) {
                let localized = try fields.string("LocalizedDescription")
                let english = try fields.string("USEnglishDescription")
                chain.append(ChainedError(code: try fields.integer("ErrorCode"), domain: try fields.string("ErrorDomain"),
                                          description: localized ?? english))
            } catch {
                throw MDMMessageProblem(key: "ErrorChain.\(index).\(error.key ?? "")", error.reason)
            }
        }
        return chain
    }

    /// The chain in words, for the command's answer: each description with its domain and code.
    public var errorSummary: String {
        errorChain.map { error in
            let source = [error.domain, error.code.map { "\($0)" }].compactMap { $0 }.joined(separator: " ")
            return (error.description ?? "An error") + (source.isEmpty ? "" : " (\(source))")
        }.joined(separator: "; ")
    }
}
