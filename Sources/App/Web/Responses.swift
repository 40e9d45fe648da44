import Foundation
import Hummingbird
import NIOCore

extension Response {
    static func html(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(value)
        return Response(
            status: status,
            headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// 303 See Other: after a POST the browser fetches the next page with GET.
    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

/// Keeps "next" parameters on our own site: a path, never a scheme-relative or absolute URL.
enum LocalPath {
    static func sanitised(_ candidate: String, fallback: String = "/dashboard") -> String {
        guard candidate.hasPrefix("/"), !candidate.hasPrefix("//"), !candidate.contains("\\"),
              !candidate.contains(where: { $0.isNewline })
        else { return fallback }
        return candidate
    }
}
