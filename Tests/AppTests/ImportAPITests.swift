@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// `.mobileconfig` and specfile imports through the API: the file as the body, the pages'
/// services and role, and a code for every refusal.
@Suite struct ImportAPITests {
    func send(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String, bytes: [UInt8],
              type: String = "application/x-apple-aspen-config") async throws -> (status: HTTPResponse.Status, headers: HTTPFields, json: [String: Any]) {
        let response = try await client.execute(uri: path, method: method, headers: [.authorization: "Bearer \(token)", .contentType: type],
                                                body: ByteBuffer(bytes: bytes))
        return (response.status, response.headers, (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:])
    }

    func code(_ json: [String: Any]) -> String? { (json["error"] as? [String: Any])?["code"] as? String }

    @Test func aProfileIsImportedAndAMatchIsAskedAbout() async throws {
        let console = try await TestConsole.make()
        let admin = try await APITests().token(console, role: .admin)
        let helpdesk = try await APITests().token(console, role: .helpdesk)
        let file = ProfileImportTests.mobileconfig(identifier: "com.example.lobby")
        try await console.test { client in
            let created = try await send(client, .post, "/api/v1/imports/mobileconfig", token: admin, bytes: file)
            #expect(created.status == .created)
            let id = try #require(created.json["id"] as? Int)
            #expect(created.json["identifier"] as? String == "com.example.lobby" && created.json["version"] as? Int == 1)
            #expect(created.json["imported"] as? [String] == ["single-app-mode", "logging"])
            #expect(((created.json["leftOut"] as? [[String: Any]])?.first?["reason"] as? String)?.contains("X.509") == true)
            #expect(created.headers[.location] == "/api/v1/profiles/\(id)")

            let again = try await send(client, .post, "/api/v1/imports/mobileconfig", token: admin, bytes: file)
            #expect(again.status == .conflict && code(again.json) == "profile_exists")
            #expect((again.json["matches"] as? [[String: Any]])?.map { $0["id"] as? Int } == [id])
            #expect(again.json["newIdentifier"] as? String == "com.example.lobby.imported")

            let version = try await send(client, .post, "/api/v1/imports/mobileconfig?versionOf=\(id)", token: admin, bytes: file)
            #expect(version.status == .ok && version.json["version"] as? Int == 2 && version.json["id"] as? Int == id)
            let copy = try await send(client, .post, "/api/v1/imports/mobileconfig?newProfile=true", token: admin, bytes: file)
            #expect(copy.status == .created && copy.json["identifier"] as? String == "com.example.lobby.imported")

            let refusals: [(String, [UInt8], HTTPResponse.Status, String)] = [
                ("/api/v1/imports/mobileconfig", [], .unprocessableContent, "empty_file"),
                ("/api/v1/imports/mobileconfig", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], .unprocessableContent, "not_a_profile"),
                ("/api/v1/imports/mobileconfig", Array("just text".utf8), .unprocessableContent, "not_a_profile"),
                ("/api/v1/imports/mobileconfig", Array("bplist00\u{0}".utf8), .unprocessableContent, "binary_plist"),
                ("/api/v1/imports/mobileconfig?versionOf=999999", file, .notFound, "profile_not_found"),
                ("/api/v1/imports/mobileconfig?newProfile=true&versionOf=\(id)", file, .badRequest, "invalid_query"),
                ("/api/v1/imports/mobileconfig?as=new", file, .badRequest, "unknown_query_parameter"),
                ("/api/v1/imports/mobileconfig", [UInt8](repeating: 0x20, count: ProfileImporter.maximumBytes + 1), .contentTooLarge, "payload_too_large"),
            ]
            for (path, bytes, status, expected) in refusals {
                let answer = try await send(client, .post, path, token: admin, bytes: bytes)
                #expect(answer.status == status && code(answer.json) == expected, "\(expected)")
            }
            var tampered = try await console.services.signing.sign(ProfileImportTests.mobileconfig(identifier: "com.example.t"))
            tampered[tampered.count / 2] ^= 0xFF
            #expect(code(try await send(client, .post, "/api/v1/imports/mobileconfig", token: admin, bytes: tampered).json).map { ["invalid_signature", "not_a_profile"].contains($0) } == true)
            #expect(try await send(client, .post, "/api/v1/imports/mobileconfig", token: helpdesk, bytes: file).status == .forbidden)
            #expect(try console.services.database.readBlocking { try $0.count(ProfileRecord.query()) } == 2)
        }
    }

    @Test func aSpecfileIsImportedForItsApp() async throws {
        let console = try await TestConsole.make()
        let admin = try await APITests().token(console, role: .admin)
        let viewer = try await APITests().token(console, role: .viewer)
        let appID = try SpecfileImportTests().app(console)
        let spec = Array(SpecfileImportTests.specfile.utf8)
        try await console.test { client in
            let path = "/api/v1/apps/\(appID)/specfile"
            let imported = try await send(client, .put, path, token: admin, bytes: spec, type: "application/xml")
            #expect(imported.status == .ok)
            #expect(imported.json["bundleID"] as? String == "com.example.clinicnotes" && imported.json["version"] as? Int == 2)
            #expect((imported.json["keys"] as? [[String: Any]])?.map { $0["name"] as? String } == ["serverURL", "sessionMinutes"])
            #expect(try console.services.database.readBlocking { try $0.count(AppConfigSpecRecord.query()) } == 1)

            let other = Array(SpecfileImportTests.specfile.replacingOccurrences(of: "com.example.clinicnotes", with: "com.example.other").utf8)
            let refusals: [(String, [UInt8], HTTPResponse.Status, String)] = [
                (path, [], .unprocessableContent, "empty_file"),
                (path, [0xFF, 0xD8, 0xFF], .unprocessableContent, "not_text"),
                (path, other, .unprocessableContent, "wrong_app"),
                (path, Array("<x>".utf8), .unprocessableContent, "invalid_file"),
                ("/api/v1/apps/999999/specfile", spec, .notFound, "not_found"),
                (path, [UInt8](repeating: 0x20, count: AppConfigSpecReader.maximumBytes + 1), .contentTooLarge, "payload_too_large"),
            ]
            for (target, bytes, status, expected) in refusals {
                let answer = try await send(client, .put, target, token: admin, bytes: bytes, type: "application/xml")
                #expect(answer.status == status && code(answer.json) == expected, "\(expected)")
            }
            #expect(try await send(client, .put, path, token: viewer, bytes: spec, type: "application/xml").status == .forbidden)
        }
    }
}
