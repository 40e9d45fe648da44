@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// Pages and API change the catalog through one `CatalogService`, so a rule holds for both
/// and both record the same audit entry.
@Suite struct CatalogServiceTests {
    func fixture() async throws -> (TestConsole, token: String, top: RecordID<DeviceGroupRecord>, child: RecordID<DeviceGroupRecord>) {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let token = try await APITokenStore(database: console.services.database, now: { Date() }).create(name: "script", role: .admin, by: .system).token
        let (top, child) = try console.services.database.writeBlocking { connection in
            let top = try connection.insert(DeviceGroupRecord(name: "Clinics", parentID: nil, createdAt: Date()))
            let child = try connection.insert(DeviceGroupRecord(name: "Ward 3", parentID: top.id, createdAt: Date()))
            return (top.id, child.id)
        }
        return (console, token, top, child)
    }

    func api(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String, body: String) async throws
        -> (status: HTTPResponse.Status, field: String?, code: String?) {
        let response = try await client.execute(uri: path, method: method,
                                                headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                                body: ByteBuffer(string: body))
        let error = ((try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any])?["error"] as? [String: Any]
        return (response.status, error?["field"] as? String, error?["code"] as? String)
    }

    @Test func aGroupCannotMoveInsideItselfOrUnderAMissingGroupFromThePageOrTheAPI() async throws {
        let (console, token, top, child) = try await fixture()
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/groups/\(top)/edit")
            let cycle = try await admin.post("/groups/\(top)", ["name": "Clinics", "parentID": child.description])
            #expect(cycle.status == .unprocessableContent)
            #expect(cycle.body.contains("cannot sit inside itself"))
            // The page used to skip this check and fail on the foreign key with a 500.
            let missing = try await admin.post("/groups/\(child)", ["name": "Ward 3", "parentID": "999"])
            #expect(missing.status == .unprocessableContent)
            #expect(missing.body.contains("That parent group does not exist"))

            let apiCycle = try await api(client, .put, "/api/v1/groups/\(top)", token: token, body: #"{"name": "Clinics", "parentID": \#(child)}"#)
            #expect(apiCycle.status == .unprocessableContent)
            #expect(apiCycle.field == "parentID")
            let apiMissing = try await api(client, .put, "/api/v1/groups/\(child)", token: token, body: #"{"name": "Ward 3", "parentID": 999}"#)
            #expect(apiMissing.status == .unprocessableContent)
            #expect(apiMissing.field == "parentID")
        }
        let groups = try console.services.database.readBlocking { try $0.fetch(DeviceGroupRecord.query().order(by: "id")) }
        #expect(groups.map(\.parentID) == [nil, top])
    }

    @Test func aDeviceAddedOnThePageAndThroughTheAPIIsAuditedAlike() async throws {
        let (console, token, _, child) = try await fixture()
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/devices/new")
            let added = try await admin.post("/devices", [
                "name": "Ward iPad", "model": "iPad", "osVersion": "17.4", "serialNumber": "dmpxk2abcd",
                "udid": "00008101-000A1B2C3D4E5F60", "supervised": "yes", "groupID": child.description,
            ])
            #expect(added.status == .seeOther)
            let viaAPI = try await api(client, .post, "/api/v1/devices", token: token, body: """
                {"name": "Ward iPhone", "model": "iPhone", "osVersion": "18.1", "serialNumber": "f9fxk1q2w3",
                 "udid": "00008030-001A35E03C8A802E", "isSupervised": true, "groupID": \(child)}
                """)
            #expect(viaAPI.status == .created)
            let duplicate = try await api(client, .post, "/api/v1/devices", token: token, body: """
                {"name": "Copy", "model": "iPad", "osVersion": "17.4", "serialNumber": "DMPXK2ABCD", "udid": "00008101-000A1B2C3D4E5F61"}
                """)
            #expect(duplicate.status == .conflict)
            #expect(duplicate.code == "device_exists")
            #expect(duplicate.field == "serialNumber")
        }
        let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "device.created").order(by: "id")) }
        #expect(audit.map(\.after) == [
            "Ward iPad: iPad iOS 17.4, serial DMPXK2ABCD, supervised, group \(child)",
            "Ward iPhone: iPhone iOS 18.1, serial F9FXK1Q2W3, supervised, group \(child)",
        ])
    }
}
