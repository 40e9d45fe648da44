import Foundation
import Hummingbird
import NIOCore

/// What the bytes of a download or a cached answer are: the `Content-Type` a value is sent
/// with, and for the document each media type the format may be sent as, with its schema.
protocol FileFormat: Sendable {
    var contentType: String { get }
    /// What the document says of a successful answer.
    static var summary: String { get }
    static func content(_ reader: SchemaReader) throws -> [String: OpenAPI.MediaType]
}

extension FileFormat {
    /// Bytes not to be read as JSON: a binary string under each media type.
    static func binary(_ mediaTypes: String...) -> [String: OpenAPI.MediaType] {
        Dictionary(uniqueKeysWithValues: mediaTypes.map { ($0, OpenAPI.MediaType(schema: .of(.string, format: "binary"))) })
    }
}

/// Bytes answered as they are, never re-encoded: a `.mobileconfig` (signed or not), an SDK
/// profile, a log export streamed as it is read. With a `filename` it is a download
/// (`Content-Disposition: attachment`).
struct FileAnswer<Format: FileFormat>: EndpointAnswer {
    let format: Format
    let body: ResponseBody
    var filename: String?
    var cacheControl: String?

    init(_ format: Format, body: ResponseBody, filename: String? = nil, cacheControl: String? = nil) {
        self.format = format
        self.body = body
        self.filename = filename
        self.cacheControl = cacheControl
    }

    init(_ format: Format, bytes: some Sequence<UInt8>, filename: String? = nil, cacheControl: String? = nil) {
        self.init(format, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)), filename: filename, cacheControl: cacheControl)
    }

    func response(status: HTTPResponse.Status, headers extra: HTTPFields) throws -> Response {
        var headers: HTTPFields = [.contentType: format.contentType]
        if let cacheControl { headers[.cacheControl] = cacheControl }
        if let filename { headers[.contentDisposition] = "attachment; filename=\"\(filename)\"" }
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: body)
    }

    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        [String(success.code): OpenAPI.Response(description: Format.summary, content: try Format.content(reader))]
    }
}
