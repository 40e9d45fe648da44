@testable import App
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

/// Bodies that claim to be forms and are not: each is a 400 (or 413 when too large) before any
/// check or handler runs, and the console keeps serving.
@Suite struct MalformedBodyTests {
    func post(_ client: any TestClientProtocol, _ path: String, contentType: String, body: [UInt8]) async throws -> HTTPResponse.Status {
        try await client.execute(uri: path, method: .post, headers: [.contentType: contentType], body: ByteBuffer(bytes: body)).status
    }

    func stillServing(_ client: any TestClientProtocol) async throws -> Bool {
        try await client.execute(uri: "/healthz", method: .get).status == .ok
    }

    @Test(arguments: [
        ("empty boundary", "multipart/form-data; boundary=", "x"),
        ("no boundary", "multipart/form-data", "--b\r\n\r\nx\r\n--b--\r\n"),
        ("boundary over 70 characters", "multipart/form-data; boundary=" + String(repeating: "b", count: 71), "x"),
        ("boundary with a forbidden character", "multipart/form-data; boundary=a\"b", "x"),
        ("no delimiter in the body", "multipart/form-data; boundary=b", "just text"),
        ("truncated part", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nvalue"),
        ("truncated headers", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-da"),
        ("header name above 0x7F", "multipart/form-data; boundary=b", "--b\r\n\u{FF}: x\r\n\r\nv\r\n--b--\r\n"),
        ("part without a name", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--\r\n"),
        ("part text not UTF-8", "multipart/form-data; boundary=b", "--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\u{FF}\r\n--b--\r\n"),
        ("URL-encoded with a bad escape", "application/x-www-form-urlencoded", "email=%zz"),
        ("URL-encoded not UTF-8", "application/x-www-form-urlencoded", "email=%FF%FE"),
    ])
    func aMalformedFormIsABadRequestAndTheConsoleKeepsServing(_ case: (name: String, contentType: String, body: String)) async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            // \u{FF} above stands for the single byte 0xFF, not its UTF-8 encoding.
            let bytes = `case`.body.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
            for path in ["/sign-in", "/profiles"] {
                let answered = try await post(client, path, contentType: `case`.contentType, body: bytes)
                #expect(answered == .badRequest, "\(`case`.name) to \(path)")
            }
            let serving = try await stillServing(client)
            #expect(serving)
        }
    }

    @Test func partHeadersLongerThanEightKilobytesAreRefused() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let body = "--b\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Filler: " + String(repeating: "x", count: 1 << 20) + "\r\n\r\nv\r\n--b--\r\n"
            let answered = try await post(client, "/sign-in", contentType: "multipart/form-data; boundary=b", body: Array(body.utf8))
            #expect(answered == .badRequest)
            let serving = try await stillServing(client)
            #expect(serving)
        }
    }

    @Test func bodiesOverTheirLimitAre413WithAPageOrAJSONError() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let form = try await client.execute(uri: "/sign-in", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                                                body: ByteBuffer(repeating: UInt8(ascii: "a"), count: RequestLimits.formBody + 1))
            #expect(form.status == .contentTooLarge)
            #expect(String(buffer: form.body).contains("larger than the console accepts"))
            #expect(form.headers[.contentType]?.hasPrefix("text/html") == true)

            let upload = try await client.execute(uri: "/profiles", method: .post, headers: [.contentType: "multipart/form-data; boundary=b"],
                                                  body: ByteBuffer(repeating: UInt8(ascii: "a"), count: RequestLimits.multipartBody + 1))
            #expect(upload.status == .contentTooLarge)

            let serving = try await stillServing(client)

            #expect(serving)
        }
    }

    @Test func aWellFormedMultipartFormStillReadsFieldsAndFiles() throws {
        let body = Array("preamble\r\n--xyz\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nLobby \u{1F600}\r\n--xyz\r\nContent-Disposition: form-data; name=\"logo\"; filename=\"a \\\"b\\\".png\"\r\nContent-Type: image/png\r\n\r\n\r\n--xy\r\n--xyz--\r\nepilogue".utf8)
        let form = try MultipartForm(parsing: body, boundary: "xyz")
        #expect(form.fields["title"] == "Lobby \u{1F600}")
        #expect(form.files["logo"]?.filename == "a \"b\".png")
        #expect(form.files["logo"]?.bytes == Array("\r\n--xy".utf8))
    }
}
