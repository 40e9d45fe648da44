import Domain
import Foundation
import Storage

/// What `/api/v1/profiles` answers.
struct ProfileList: APIAnswer {
    let profiles: [ProfileSummary]
}

struct ProfileSummary: APIAnswer {
    let id: RecordID<ProfileRecord>
    let identifier: String
    let name: String
    let version: Int
    let updatedAt: Date
}

/// A profile's latest version, with the groups it is assigned to.
struct ProfileAnswer: APIAnswer, NamedSchema {
    static let schemaName = "Profile"
    let id: RecordID<ProfileRecord>
    let identifier: String
    let name: String
    let description: String
    let version: Int
    let payloads: [PayloadDocument]
    let groups: [AssignedGroup]

    struct AssignedGroup: Codable, Sendable {
        let id: RecordID<DeviceGroupRecord>
        let name: String
    }
}

/// One payload as the API shows and takes it: Apple's keys or the SDK's, under its
/// `PayloadType`. Its fields depend on that type, so the document describes it by hand
/// (the `Payload` schema).
struct PayloadDocument: Codable, Sendable, SchemaLeaf {
    let json: JSONValue

    /// The `Payload` component every payload in the document refers to: its keys depend on its
    /// `PayloadType`, so the schema names the types and leaves the keys open.
    static let componentName = "Payload"
    static var component: JSONSchema {
        var schema = JSONSchema.of(.object, description: """
            Apple payloads use Apple's keys (com.apple.app.lock with App.Identifier, App.Options, App.UserEnabledOptions; \
            com.apple.applicationaccess with autonomousSingleAppModePermittedAppIDs). SDK payloads use PayloadType \
            com.payloadconsole.sdk.<kind> (\(PayloadKind.allCases.filter { !$0.isApplePayload }.map(\.rawValue).joined(separator: ", "))).
            """)
        schema.required = ["PayloadType"]
        schema.properties = ["PayloadType": .oneOfStrings(PayloadKind.allCases.map(PayloadJSON.payloadType(of:)))]
        return schema
    }

    init(_ payload: Payload) throws {
        json = try JSONDecoder().decode(JSONValue.self, from: PayloadJSON.encode(payload))
    }

    init(from decoder: any Decoder) throws {
        json = try JSONValue(from: decoder)
    }

    func encode(to encoder: any Encoder) throws {
        try json.encode(to: encoder)
    }

    static var schema: JSONSchema { .reference(to: PayloadDocument.componentName) }
    static var placeholder: PayloadDocument { PayloadDocument(json: .object([:])) }

    private init(json: JSONValue) {
        self.json = json
    }
}

extension SentPayload: SchemaLeaf {
    static var schema: JSONSchema { .reference(to: PayloadDocument.componentName) }
    static var placeholder: SentPayload { SentPayload(placeholder: Payload(Analytics(enabled: true))) }

    private init(placeholder: Payload) {
        payload = placeholder
    }
}

/// A change's answer: the profile as saved, or with `dryRun=true`, what the change would do.
enum ProfileChangeAnswer: APIAnswer, SchemaReadable {
    case saved(ProfileAnswer)
    case dryRun(DryRunAnswer)

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .saved(let profile): try profile.encode(to: encoder)
        case .dryRun(let impact): try impact.encode(to: encoder)
        }
    }

    init(from decoder: any Decoder) throws {
        if let impact = try? DryRunAnswer(from: decoder) { self = .dryRun(impact) } else { self = .saved(try ProfileAnswer(from: decoder)) }
    }

    /// Either schema (anyOf): which one, `dryRun` in the query says.
    static func readSchema(_ context: SchemaReader.Context) throws -> ProfileChangeAnswer {
        let profile = try context.reader.schema(of: ProfileAnswer.self)
        let impact = try context.reader.schema(of: DryRunAnswer.self)
        context.slot.schema = JSONSchema(anyOf: [profile, impact])
        return .dryRun(DryRunAnswer(impact: .none))
    }
}
