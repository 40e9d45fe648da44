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

/// Keeps "next" and "back" parameters on our own site.
///
/// Only a path is accepted: a single `/` followed by a path character (or nothing), and then
/// only printable ASCII without `\`. Browsers drop tabs and line breaks from a URL and treat
/// `\` as `/`, so `/%09/evil.example` or `/\evil.example` would be read as the
/// scheme-relative `//evil.example`; anything like that goes to the fallback instead.
enum LocalPath {
    static func sanitised(_ candidate: String, fallback: String = "/dashboard") -> String {
        isLocal(candidate) ? candidate : fallback
    }

    static func isLocal(_ candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\\") }) else { return false }
        guard bytes.count > 1 else { return true }
        return isPathCharacter(bytes[1])
    }

    /// RFC 3986 `pchar` without `%` (a percent-encoded second character could decode to `/`).
    private static func isPathCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        default: "-._~!$&'()*+,;=:@?#".utf8.contains(byte)
        }
    }
}
