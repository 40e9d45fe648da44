import Domain
import Foundation
import Storage

/// `POST /api/v1/profiles` and `PUT /api/v1/profiles/{id}`.
struct ProfileBody: APIRequestBody {
    let name: String
    let description: String?
    /// Only on create: the identifier never changes afterwards.
    let identifier: String?
    let payloads: [SentPayload]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, description, identifier, payloads
    }
}

/// `POST /api/v1/profiles/{id}/assignments`.
struct AssignmentBody: APIRequestBody {
    let groupID: RecordID<DeviceGroupRecord>

    enum CodingKeys: String, CodingKey, CaseIterable {
        case groupID
    }
}

/// One payload object of a profile body. Its fields depend on its `PayloadType`, so they are
/// checked after decoding: every key sent must survive into the payload as the API shows it
/// again, or the request is refused, so that no setting is dropped without a word.
struct SentPayload: Decodable, Sendable {
    let payload: Payload

    /// Keys a `.mobileconfig` payload carries beside its settings; the console sets its own.
    static let envelopeKeys: Set<String> = [
        "PayloadUUID", "PayloadIdentifier", "PayloadVersion", "PayloadDisplayName", "PayloadDescription", "PayloadOrganization",
    ]

    init(from decoder: any Decoder) throws {
        payload = try PayloadJSON.Document(from: decoder).payload
        guard case .object(var sent) = try JSONValue(from: decoder) else { return }
        for key in Self.envelopeKeys { sent[key] = nil }
        let understood = try JSONDecoder().decode(JSONValue.self, from: PayloadJSON.encode(payload))
        if let skipped = JSONValue.object(sent).keysMissing(from: understood).first {
            throw APIRequest.UnknownField(path: APIRequest.path(decoder.codingPath) + "." + skipped)
        }
    }
}

extension ProfileBody: NamedSchema, DocumentedFields {
    static let schemaName = "ProfileInput"

    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        return switch field {
        case .name: D.singleLine(1...120)
        case .description: D.multiLine.refined(by: JSONSchema(defaultValue: .string("")))
        case .identifier: JSONSchema(description: "Reverse-DNS; left out, one is made from the name. Only when creating: it never changes, so a new version refuses it.",
                                     pattern: "^\(D.bundleIDPattern)$", maxLength: BundleID.maximumLength)
        case .payloads: JSONSchema(defaultValue: .array([]))
        }
    }
}
