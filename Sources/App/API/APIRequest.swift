import Domain
import Foundation
import Hummingbird
import NIOCore

/// A JSON body the console's API accepts, decoded by `Codable` so that a wrong type is refused
/// rather than read as a default. `CodingKeys` lists every field: a field that is not among
/// them is refused too (a misspelt `isSupervized` must not be silently dropped), unless the
/// body speaks a protocol whose clients send more than we read (the device API).
protocol APIRequestBody: EndpointBody, Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    static var refusesUnknownFields: Bool { get }
    /// The body's schema in the API document; nil when the operation takes none.
    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema?
}

extension APIRequestBody {
    static var refusesUnknownFields: Bool { true }

    static func read(from request: Request) async throws -> Self {
        try await APIRequest.decode(Self.self, from: request)
    }

    static func documentedSchema(_ reader: SchemaReader) throws -> JSONSchema? {
        try reader.schema(of: Self.self)
    }

    static func documentedBody(_ reader: SchemaReader) throws -> OpenAPI.RequestBody? {
        try documentedSchema(reader).map(OpenAPI.RequestBody.init(json:))
    }
}

/// Reading JSON request bodies and writing JSON answers for the API.
enum APIRequest {
    /// The body as `Body`: over `RequestLimits.jsonBody` is a 413, not JSON or not an object a
    /// 400, and a missing, unknown or mistyped field a 422 that names it.
    static func decode<Body: APIRequestBody>(_ type: Body.Type, from request: Request) async throws -> Body {
        var request = request
        let buffer = try await request.collectBody(upTo: RequestLimits.jsonBody)
        return try decode(type, from: Data(buffer.readableBytesView))
    }

    static func decode<Body: APIRequestBody>(_ type: Body.Type, from data: Data) throws -> Body {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            guard let date = ISOTimestamp.parse(text) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "must be a real ISO 8601 time with its zone, such as 2026-11-23T09:30:00Z, \(ISOTimestamp.rangeDescription)"))
            }
            return date
        }
        let fields: [String: JSONValue]
        do { fields = try decoder.decode([String: JSONValue].self, from: data) } catch {
            throw APIError(status: .badRequest, code: .malformedJSON, message: "The body must be a JSON object.")
        }
        // A body that ignores what it does not read checks the text it keeps itself; refusing a
        // control character in a field it ignores would refuse a valid request.
        if Body.refusesUnknownFields, let path = JSONValue.object(fields).pathOfControlCharacter() {
            throw invalid(path.clipped(to: 200), "\(path.clipped(to: 80)) \(controlCharacterRule)")
        }
        if Body.refusesUnknownFields {
            let known = Set(Body.CodingKeys.allCases.map(\.stringValue))
            if let unknown = fields.keys.sorted().first(where: { !known.contains($0) }) {
                throw unknownField(unknown)
            }
        }
        do {
            return try decoder.decode(Body.self, from: data)
        } catch let error as DecodingError {
            throw refusal(error)
        } catch let error as UnknownField {
            throw unknownField(error.path)
        }
    }

    /// What a field with a control character is told (after its name).
    static let controlCharacterRule = "holds an invisible control character; only tab and line breaks are allowed in text."

    /// Thrown while decoding a nested object whose fields cannot be listed up front (a payload).
    struct UnknownField: Error {
        let path: String
    }

    static func unknownField(_ field: String) -> APIError {
        APIError(status: .unprocessableContent, code: .unknownField,
                 message: "\(field.clipped(to: 80)) is not a field of this request; check its spelling against the API document.",
                 field: field.clipped(to: 200))
    }

    /// A 422 for any field the request names wrongly, with the message a person can act on.
    static func invalid(_ field: String, _ message: String) -> APIError {
        APIError(status: .unprocessableContent, code: .validationFailed, message: message, field: field)
    }

    /// The first problem of `errors` (a domain validation) as a 422, its field under `prefix`.
    static func refuse(_ errors: ValidationErrors, under prefix: String = "") throws {
        guard let (field, message) = errors.messages.sorted(by: { $0.key < $1.key }).first else { return }
        throw invalid(prefix + field, message)
    }

    /// Turns a decoding failure into a 422 naming the field by its dotted path (`payloads.2`).
    static func refusal(_ error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return invalid(field, "\(field) is required.")
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return invalid(field, "\(field) must be \(noun(for: type)).")
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return invalid(field, "\(field) must be \(noun(for: type)), not null.")
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            // A number that does not fit its field (3.5 or 1e40 for a whole number) comes back
            // from the JSON decoder without its field, worded as if the JSON were broken.
            guard !field.isEmpty else {
                return invalid("", "A number does not fit its field: whole numbers where the API document asks for an integer, within their range.")
            }
            // A string enum's unknown value comes back worded for Swift programmers.
            if context.debugDescription.hasPrefix("Cannot initialize "), let value = context.debugDescription.components(separatedBy: " value ").last {
                return invalid(field, "\(field) cannot be “\(value)”: it is one of the values the API document lists for it.")
            }
            return invalid(field, "\(field) \(context.debugDescription)")
        @unknown default:
            return invalid("", "The body could not be read.")
        }
    }

    static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    private static func noun(for type: Any.Type) -> String {
        switch type {
        case is Bool.Type: "true or false"
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type, is Int32.Type: "a whole number"
        case is Double.Type, is Float.Type: "a number"
        case is any DecodedAsArray.Type: "an array"
        case is any DecodedAsObject.Type: "an object"
        default: "a value of another type"
        }
    }
}

/// The types JSONDecoder names when a value should have been an array or an object (it
/// reports a dictionary of `String` to `Any` for an object it expected, an array of `Any` for an array).
private protocol DecodedAsArray {}
extension Array: DecodedAsArray {}
private protocol DecodedAsObject {}
extension Dictionary: DecodedAsObject {}
