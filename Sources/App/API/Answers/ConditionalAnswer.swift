import Foundation
import Hummingbird
import NIOCore

/// Bytes made once and shared by every answer (copy-on-write), sent with their ETag, or
/// `304 Not Modified` when the client already holds that tag (`If-None-Match`): the device
/// check-in, whose cached policy is served as it was encoded, never encoded again per request.
struct ConditionalAnswer<Format: FileFormat>: EndpointAnswer {
    let format: Format
    /// Quoted, as the `ETag` header carries it.
    let etag: String
    /// nil when the client has these bytes already.
    let body: ByteBuffer?

    /// The answer to `request` for bytes tagged `tag`.
    init(_ format: Format, tag: String, body: ByteBuffer, request: Request) {
        self.format = format
        let etag = "\"\(tag)\""
        self.etag = etag
        let held = request.headers[.ifNoneMatch].map { $0 == etag || Self.listMatches($0, etag) } ?? false
        self.body = held ? nil : body
    }

    /// `If-None-Match` may list several tags, weak ones marked `W/`, or `*`. Devices send back
    /// the one tag they were given, which is compared first without any parsing.
    static func listMatches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            var tag = candidate.trimmingCharacters(in: .whitespaces)
            if tag.hasPrefix("W/") { tag.removeFirst(2) }
            return tag == etag || tag == "*"
        }
    }

    func response(status: HTTPResponse.Status, headers extra: HTTPFields) throws -> Response {
        guard let body else { return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "no-cache"]) }
        var headers: HTTPFields = [.contentType: format.contentType, .eTag: etag, .cacheControl: "no-cache"]
        headers.append(contentsOf: extra)
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }

    static func documentedAnswers(success: HTTPResponse.Status, reader: SchemaReader) throws -> [String: OpenAPI.Response] {
        let etag = OpenAPI.Header(description: "The tag to send back in If-None-Match", schema: .string)
        return [
            String(success.code): OpenAPI.Response(description: Format.summary, headers: ["ETag": etag], content: try Format.content(reader)),
            "304": OpenAPI.Response(description: "Not modified: what the client holds is current", headers: ["ETag": etag]),
        ]
    }
}
