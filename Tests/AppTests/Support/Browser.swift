import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore

/// Drives the console like a browser would: keeps cookies, and posts forms with the CSRF token
/// of the page it last loaded.
final class Browser: @unchecked Sendable {
    let client: any TestClientProtocol
    private(set) var cookies: [String: String] = [:]
    private(set) var lastPage = ""

    init(_ client: any TestClientProtocol) {
        self.client = client
    }

    struct Page {
        let status: HTTPResponse.Status
        let headers: HTTPFields
        let body: String
        var location: String? { headers[.location] }
    }

    @discardableResult
    func get(_ path: String) async throws -> Page {
        try await send(path, method: .get)
    }

    /// Posts `fields` URL-encoded, adding `_csrf` from the last page unless one is given.
    @discardableResult
    func post(_ path: String, _ fields: [String: String] = [:], csrf: String? = nil) async throws -> Page {
        var fields = fields
        fields["_csrf"] = csrf ?? csrfToken
        let body = fields.map { "\(Self.encode($0.key))=\(Self.encode($0.value))" }.joined(separator: "&")
        return try await send(path, method: .post, body: body, contentType: "application/x-www-form-urlencoded")
    }

    /// Posts fields in order, a name as often as a form repeats it (ticked checkboxes).
    @discardableResult
    func post(_ path: String, pairs: [(String, String)]) async throws -> Page {
        let body = ([("_csrf", csrfToken)] + pairs).map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        return try await send(path, method: .post, body: body, contentType: "application/x-www-form-urlencoded")
    }

    /// Posts a multipart form with files, as a file input sends it.
    @discardableResult
    func postMultipart(_ path: String, _ fields: [String: String], files: [String: (filename: String, bytes: [UInt8])]) async throws -> Page {
        let boundary = "----browser-test-boundary"
        var body: [UInt8] = []
        var all = fields
        all["_csrf"] = csrfToken
        for (name, value) in all {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n".utf8)
        }
        for (name, file) in files {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(file.filename)\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)
            body += file.bytes + Array("\r\n".utf8)
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return try await sendBytes(path, method: .post, body: body, contentType: "multipart/form-data; boundary=\(boundary)")
    }

    /// Loads the sign-in page and signs in.
    @discardableResult
    func signIn(_ email: String, password: String) async throws -> Page {
        try await get("/sign-in")
        return try await post("/sign-in", ["email": email, "password": password])
    }

    var csrfToken: String {
        guard let range = lastPage.range(of: #"name="_csrf" value=""#) else { return "" }
        return String(lastPage[range.upperBound...].prefix { $0 != "\"" })
    }

    func send(_ path: String, method: HTTPRequest.Method, body: String? = nil, contentType: String? = nil, headers extra: HTTPFields = [:]) async throws -> Page {
        try await sendBytes(path, method: method, body: body.map { Array($0.utf8) }, contentType: contentType, headers: extra)
    }

    func sendBytes(_ path: String, method: HTTPRequest.Method, body: [UInt8]? = nil, contentType: String? = nil, headers extra: HTTPFields = [:]) async throws -> Page {
        var headers = extra
        if !cookies.isEmpty {
            headers[.cookie] = cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        }
        if let contentType { headers[.contentType] = contentType }
        let response = try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(bytes: $0) })
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0]), value = pair.count > 1 ? String(pair[1]) : ""
            if value.isEmpty || header.contains("Max-Age=0") { cookies[name] = nil } else { cookies[name] = value }
        }
        let page = Page(status: response.status, headers: response.headers, body: String(buffer: response.body))
        if page.headers[.contentType]?.hasPrefix("text/html") == true { lastPage = page.body }
        return page
    }

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }
}
