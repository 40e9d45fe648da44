import Hummingbird
import NIOCore

/// Anything an `APIEndpoint` reads as its body before the handler runs: JSON
/// (`APIRequestBody`), nothing (`NoBody`), or a file's bytes (`FileBody`). Each says both how
/// it is read and how the document describes it.
protocol EndpointBody: Sendable {
    /// The body of `request`, or the 4xx that says why it cannot be read.
    static func read(from request: Request) async throws -> Self
    /// The body in the API document; nil when the operation takes none.
    static func documentedBody(_ reader: SchemaReader) throws -> OpenAPI.RequestBody?
}

/// What a file sent as a request body is, for reading and for the document.
protocol UploadedFormat: Sendable {
    /// The media types a client may send it as.
    static var mediaTypes: [String] { get }
    static var summary: String { get }
    /// Read up to this many bytes; more is a 413 before anything is parsed.
    static var maximumBytes: Int { get }
}

/// A request whose body is a file itself, as `curl --data-binary @file` sends it: its bytes,
/// read up to `Format.maximumBytes`. What the bytes hold is the importer's to check (it words
/// its own refusals), so the media type the client names is not checked here.
struct FileBody<Format: UploadedFormat>: EndpointBody {
    let bytes: [UInt8]

    static func read(from request: Request) async throws -> FileBody {
        var request = request
        return FileBody(bytes: Array(try await request.collectBody(upTo: Format.maximumBytes).readableBytesView))
    }

    static func documentedBody(_ reader: SchemaReader) throws -> OpenAPI.RequestBody? {
        OpenAPI.RequestBody(Format.summary, content: Dictionary(uniqueKeysWithValues: Format.mediaTypes.map {
            ($0, OpenAPI.MediaType(schema: .of(.string, format: "binary")))
        }))
    }
}
