import Domain
import Foundation

// What the document says of a device's command reply beyond its Swift types: the limits
// `CommandReplyBody.feedback()` and `status()` check, so a client can check its reply first.

extension CommandReplyBody: NamedSchema, DocumentedFields {
    static let schemaName = "CommandReply"

    static var schemaDescription: String? {
        "Keys other than Status and ErrorChain (UDID, CommandUUID, results) are accepted and ignored, as MDM clients send them. The command's answer keeps the chain's descriptions within \(maximumSummary.formatted()) characters, counting those left out."
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .Status: .oneOfStrings(CommandStatus.reports.map(\.protocolName))
        case .ErrorChain: nil
        case .ManagedApplicationFeedback:
            JSONSchema(description: "The answer to ManagedApplicationFeedback: each app's feedback dictionary, kept as its history; keys and text values of all apps together at most \(maximumFeedbackCharacters) characters",
                       maxItems: DeviceCommand.maximumApps)
        }
    }
}

extension CommandReplyBody.ErrorItem: DocumentedFields {
    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .ErrorCode ? nil : OpenAPIDocument.plainText
    }
}

extension CommandReplyBody.FeedbackItem: DocumentedFields {
    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        switch field {
        case .Identifier: return D.bundleID
        case .Feedback:
            var value = JSONSchema()
            value.oneOf = [.number, .boolean,
                           JSONSchema(types: [.string], pattern: "^[^\(D.controlsBesideLineBreaks)]*$", maxLength: CommandReplyBody.maximumFeedbackTextLength)]
            return JSONSchema(maxProperties: CommandReplyBody.maximumFeedbackKeys,
                              propertyNames: JSONSchema(pattern: "^[^\(D.controls)]+$", maxLength: CommandReplyBody.maximumFeedbackKeyLength),
                              additionalProperties: .values(value))
        }
    }
}
