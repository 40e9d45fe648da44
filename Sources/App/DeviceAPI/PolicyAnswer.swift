import Domain
import Foundation

/// The device's effective policy as check-in answers it.
struct PolicyAnswer: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "PolicyDocument"
    let payloads: [PayloadDocument]
    let conflict: [String]
    let warnings: [String]

    enum CodingKeys: String, CodingKey, CaseIterable {
        case payloads, conflict, warnings
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .payloads: JSONSchema(description: "The effective policy, with Apple's and the SDK's key names")
        case .conflict: JSONSchema(description: "Apps of a Single App Mode conflict; when not empty, payloads is empty and the device keeps its previous policy")
        case .warnings: nil
        }
    }
}

/// The check-in's JSON, as `ConditionalAnswer` serves it from the cache.
struct PolicyJSON: FileFormat {
    var contentType: String { "application/json; charset=utf-8" }
    static let summary = "The policy"

    static func content(_ reader: SchemaReader) throws -> [String: OpenAPI.MediaType] {
        ["application/json": OpenAPI.MediaType(schema: try reader.schema(of: PolicyAnswer.self))]
    }
}
