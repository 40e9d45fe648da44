@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// Seed 004 asks for a tunnel address's port only when it is not 80 or 443: the form and the
/// API accept a host alone, and still refuse what no port reading can save.
@Suite struct AppTunnelFlowTests {
    @Test func theFormAcceptsAHostWithoutAPort() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await ProfileTests().adminWithProfile(console, client, name: "Field sales")
            let form = try await admin.get("/profiles/\(id)/payloads/app-tunnel")
            #expect(form.body.contains("means ports 80 and 443"))
            let saved = try await admin.post("/profiles/\(id)/payloads/app-tunnel",
                                             ["baseVersion": "1", "mode": "split", "addresses": "intranet.example.com\ndata.example.com:7777", "intent": "save"])
            #expect(saved.status == .seeOther)
            let covered = try await admin.post("/profiles/\(id)/payloads/app-tunnel",
                                               ["baseVersion": "2", "mode": "split", "addresses": "intranet.example.com\nintranet.example.com:80", "intent": "save"])
            #expect(covered.status == .unprocessableContent)
            #expect(covered.body.contains("already covered by intranet.example.com"))
        }
    }

    @Test func theAPIAcceptsAHostWithoutAPort() async throws {
        let console = try await TestConsole.make()
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "script", role: .admin, by: .system).token
        try await console.test { client in
            func create(_ addresses: String) async throws -> TestResponse {
                let body = #"{"name": "Tunnel", "payloads": [{"PayloadType": "com.payloadconsole.sdk.app-tunnel", "mode": "split", "directAddresses": [\#(addresses)]}]}"#
                return try await client.execute(uri: "/api/v1/profiles", method: .post,
                                                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"], body: ByteBuffer(string: body))
            }
            #expect(try await create(#""intranet.example.com""#).status == .created)
            let bad = try await create(#""intranet.example.com:0""#)
            #expect(bad.status == .unprocessableContent)
            #expect(String(buffer: bad.body).contains("payloads.0.addresses.0"))
        }
    }
}
