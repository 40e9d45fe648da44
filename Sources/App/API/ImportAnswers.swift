import Domain
import Foundation
import Hummingbird
import Storage

/// What `POST /api/v1/imports/mobileconfig` answers: the profile made or the version added,
/// or, when a profile matches the file and the client did not say what to do, the matches.
/// Each outcome has its own status, so the answer sets it (201, 200 or 409).
enum ProfileImportAnswer: EndpointAnswer {
    case newProfile(ImportedProfile)
    case newVersion(ImportedProfile)
    case matches(ImportMatches)

    func response(status: HTTPResponse.Status, headers: HTTPFields) throws -> Response {
        switch self {
        case .newProfile(let profile): try .json(profile, status: .created, headers: headers)
        case .newVersion(let profile): try .json(profile, status: .ok, headers: headers)
        case .matches(let matches): try .json(matches, status: .conflict, headers: headers)
        }
    }

    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        let profile = try reader.schema(of: ImportedProfile.self)
        return ["201": .json("A new profile", profile), "200": .json("The profile's next version", profile),
                "409": .json("profile_exists: choose newProfile=true or versionOf", try reader.schema(of: ImportMatches.self))]
    }
}

struct ImportedProfile: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "ImportedProfile"
    let id: RecordID<ProfileRecord>
    let identifier: String
    let name: String
    let version: Int
    let signature: String
    let imported: [String]
    let leftOut: [LeftOut]

    struct LeftOut: Codable, Sendable {
        let payloadType: String
        let name: String
        let reason: String
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, identifier, name, version, signature, imported, leftOut
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        switch field {
        case .version: JSONSchema(description: "1 for a new profile; else the version the file became")
        case .signature: JSONSchema(description: "Not signed, or who signed it and whether the signature holds")
        case .imported: JSONSchema(items: .oneOfStrings(PayloadKind.allCases.map(\.rawValue)))
        case .leftOut: JSONSchema(description: "Payloads of the file the console does not take, and why")
        default: nil
        }
    }

    init(_ outcome: ProfileImporter.Outcome) {
        id = outcome.profile.id
        identifier = outcome.profile.identifier
        name = outcome.profile.name
        version = outcome.version
        signature = outcome.signature
        imported = outcome.imported.payloads.map(\.kind.rawValue)
        leftOut = outcome.imported.leftOut.map { LeftOut(payloadType: $0.payloadType, name: $0.name, reason: $0.reason) }
    }
}

/// The 409 of an import that matches profiles: the error, and what the client may choose.
struct ImportMatches: APIAnswer, NamedSchema, DocumentedFields {
    static let schemaName = "ImportMatches"
    let error: Refusal
    let matches: [Match]
    let newIdentifier: String

    struct Refusal: Codable, Sendable, DocumentedFields {
        let code: APIErrorCode
        let message: String
        @Nullable var field: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case code, message, field
        }

        static func note(on field: CodingKeys) -> JSONSchema? {
            field == .code ? .oneOfStrings([APIErrorCode.profileExists.rawValue]) : nil
        }
    }

    struct Match: Codable, Sendable {
        let id: RecordID<ProfileRecord>
        let identifier: String
        let name: String
        let version: Int
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case error, matches, newIdentifier
    }

    static func note(on field: CodingKeys) -> JSONSchema? {
        field == .newIdentifier ? JSONSchema(description: "The identifier newProfile=true would give") : nil
    }

    init(_ found: ProfileImporter.Matches) {
        error = Refusal(code: .profileExists, message: "A profile has this file's identifier already. Ask again with newProfile=true, or with versionOf=<id> to make it that profile's next version.",
                        field: nil)
        matches = found.profiles.map { Match(id: $0.id, identifier: $0.identifier, name: $0.name, version: $0.version) }
        newIdentifier = found.newIdentifier
    }
}

/// What `PUT /api/v1/apps/{id}/specfile` answers: the keys imported and those skipped.
struct ImportedSpecfile: APIAnswer, NamedSchema {
    static let schemaName = "ImportedSpecfile"
    let bundleID: String
    let version: Int
    let keys: [Key]
    let skipped: [Skipped]

    struct Key: Codable, Sendable {
        let name: String
        let type: ConfigValueType
    }

    struct Skipped: Codable, Sendable {
        let key: String
        let line: Int
        let reason: String
    }

    init(_ spec: AppConfigSpec) {
        bundleID = spec.bundleID
        version = spec.version
        keys = spec.keys.map { Key(name: $0.name, type: $0.type) }
        skipped = spec.skipped.map { Skipped(key: $0.keyName, line: $0.line, reason: $0.reason) }
    }
}

extension ConfigValueType: DocumentedEnum {}
extension APIErrorCode: DocumentedEnum {}
