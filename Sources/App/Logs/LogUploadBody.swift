import Domain
import Hummingbird
import NIOCore

/// The body of `POST /api/v1/device/logs`: NDJSON, plain or gzip, read up to
/// `RequestLimits.logUpload` (413 beyond it) with the headers that say how to read it; the
/// lines are decoded and checked by `LogUpload`, off the request's task.
struct LogUploadBody: EndpointBody {
    let bytes: ByteBuffer
    let contentType: String?
    let contentEncoding: String?

    static func read(from request: Request) async throws -> LogUploadBody {
        var request = request
        let bytes = try await request.collectBody(upTo: RequestLimits.logUpload)
        return LogUploadBody(bytes: bytes, contentType: request.headers[.contentType], contentEncoding: request.headers[.contentEncoding])
    }

    /// Described as the array of its lines, one `LogLine` per line.
    static func documentedBody(_ reader: SchemaReader) throws -> OpenAPI.RequestBody? {
        var lines = JSONSchema.array(of: try reader.schema(of: LogUpload.Line.self))
        lines.minItems = 1
        lines.maxItems = LogBatch.maximumLines
        return OpenAPI.RequestBody("One LogLine per line, plain or Content-Encoding: gzip", content: ["application/x-ndjson": OpenAPI.MediaType(schema: lines)])
    }
}

extension LogUpload.Line: NamedSchema, DocumentedFields {
    static let schemaName = "LogLine"
    static var schemaDescription: String? { "One line of an upload. Keys the console does not read are accepted and ignored." }

    static func note(on field: CodingKeys) -> JSONSchema? {
        typealias D = OpenAPIDocument
        return switch field {
        case .app: D.bundleID
        case .appVersion: JSONSchema(types: [.string], pattern: "^[^\(D.controls)]*$", maxLength: 40)
        case .level: .names(of: LogLevel.self)
        case .type: .names(of: SimulatedLog.Kind.self)
        case .timestamp: JSONSchema(types: [.string], format: "date-time", description: "When the app logged it: \(ISOTimestamp.documentedRange)")
        case .message: JSONSchema(types: [.string], description: "At most 8 KB of UTF-8 (maxLength is the count that always fits); tab and line breaks allowed",
                                  pattern: "^[^\(D.controlsBesideLineBreaks)]+$", minLength: 1, maxLength: LogLine.maximumMessageBytes / 4)
        case .fields: JSONSchema(description: "Flat: text (at most 1 KB), numbers or booleans", maxProperties: LogLine.maximumFields,
                                 propertyNames: JSONSchema(pattern: "^[^\(D.controls)]+$", minLength: 1, maxLength: 64))
        }
    }
}

/// A structured field's value: text, a number or a boolean.
extension LogUpload.FieldValue: SchemaLeaf {
    static var schema: JSONSchema {
        var schema = JSONSchema()
        schema.oneOf = [JSONSchema(types: [.string], pattern: "^[^\(OpenAPIDocument.controlsBesideLineBreaks)]*$", maxLength: 256), .number, .boolean]
        return schema
    }

    static var placeholder: LogUpload.FieldValue { LogUpload.FieldValue(text: "") }
}
