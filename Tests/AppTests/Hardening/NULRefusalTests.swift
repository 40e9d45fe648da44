@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// The NUL character, which PostgreSQL cannot store or compare, meets the same refusal on
/// both backends: in an address, by the parameter's name; anywhere else, where it is bound.
@Suite struct NULRefusalTests {
    @Test func aNULInAnAddressIsRefusedByNameOnEitherBackend() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let api = APITests()
        let helpdesk = try await api.token(console, role: .helpdesk)
        try await console.test { client in
            for (path, field) in [("/api/v1/logs?app=%00", "app"), ("/api/v1/logs?signature=a%00b", "signature"),
                                  ("/api/v1/logs/crashes?app=%00", "app"), ("/api/v1/logs/export?q=printer%00", "q"),
                                  ("/api/v1/devices?q=%00", "q")] {
                let answer = try await api.call(client, .get, path, token: helpdesk)
                #expect(answer.status == .badRequest, "\(path)")
                #expect(api.errorCode(answer.json) == "invalid_parameter" && (answer.json["error"] as? [String: Any])?["field"] as? String == field, "\(path)")
            }
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let page = try await admin.get("/logs?app=%00")
            #expect(page.status == .badRequest && page.body.contains("NUL character"))
            #expect(try await admin.get("/devices?q=%00").status == .badRequest)
            #expect(try await admin.get("/logs?app=%2500").status == .ok, "the text %00, encoded, is only text")
        }
    }

    @Test func aBoundTextHoldingNULIsRefusedBeforeEitherBackendIsAskedAndNothingIsWritten() async throws {
        let console = try await TestConsole.make()
        let database = console.services.database
        await #expect(throws: StorageError.textWithNUL) {
            try await database.write { connection in
                _ = try connection.insert(DeviceGroupRecord(name: "Kept", parentID: nil, createdAt: Date()))
                _ = try connection.insert(DeviceGroupRecord(name: "Lob\u{0}by", parentID: nil, createdAt: Date()))
            }
        }
        await #expect(throws: StorageError.textWithNUL) {
            try await database.read { try $0.rows("SELECT id FROM device_groups WHERE name = \("a\u{0}")") }
        }
        let names = try await database.read { try $0.fetch(DeviceGroupRecord.query()).map(\.name) }
        #expect(!names.contains("Kept"), "the write is all-or-nothing")
        #expect(Problem(StorageError.textWithNUL).status == .badRequest)
    }
}
