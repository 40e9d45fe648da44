@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Certificate pinning end to end: a certificate uploaded on the payload form is read and
/// shown, kept across a refused save, saved with what OpenSSL read; the API takes the DER and
/// fills the rest itself; and a simulated app connects with the pinned certificate and is
/// refused with an interceptor's.
@Suite struct CertificatePinningFlowTests {
    let api = APITests()
    let devices = DeviceAPITests()

    static func certificate(_ name: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../SigningTests/Certificates/\(name)").standardizedFileURL
        return Array(try Data(contentsOf: url))
    }

    func pinning(_ console: TestConsole, profile: RecordID<ProfileRecord>) throws -> CertificatePinning? {
        let version = try console.services.database.readBlocking { try ProfileReader.latestVersion(of: profile, in: $0) }
        guard let pinning = version.content.settings(CertificatePinning.self) else { return nil }
        return pinning
    }

    @Test func anUploadedCertificateIsReadShownKeptAndSaved() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let profile = try await ProfileStore(database: console.services.database, now: { Date() })
            .create(identifier: "com.example.sales", content: ProfileContent(name: "Sales"), by: .system)
        let path = "/profiles/\(profile.id)/payloads/certificate-pinning"
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get(path)

            // A bad host with a good certificate: refused, the certificate shown and carried on.
            let refused = try await admin.postMultipart(path, ["baseVersion": "1", "enabled": "on", "hosts": "api.northwind.example\nnot a host"],
                                                        files: ["upload": ("api.pem", try Self.certificate("api.pem"))])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("O=Northwind Traders,CN=api.northwind.example"))
            #expect(refused.body.contains("VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k="))
            #expect(refused.body.contains("2026-01-01 to 2036-01-01"))
            #expect(refused.body.contains(#"id="pinning-hosts-error""#))
            #expect(try pinning(console, profile: profile.id) == nil)
            let carried = try #require(refused.body.range(of: #"name="certificate" value=""#).map { refused.body[$0.upperBound...].prefix { $0 != "\"" } })

            // Fixed, with the carried certificate and an expired one uploaded beside it: saved, with a warning shown.
            let saved = try await admin.postMultipart(path, ["baseVersion": "1", "enabled": "on", "hosts": "api.northwind.example\n*.northwind.example",
                                                             "certificate": String(carried)],
                                                      files: ["upload": ("legacy.pem", try Self.certificate("expired.pem"))])
            #expect(saved.status == .seeOther)
            let stored = try #require(try pinning(console, profile: profile.id))
            #expect(stored.hosts == ["api.northwind.example", "*.northwind.example"])
            #expect(stored.certificates.map(\.publicKeySHA256) == ["VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k=", "LodqjulmQimbQPGlJogisxIXv9fVNS53VLridlM6AfU="])
            let form = try await admin.get(path)
            #expect(form.body.contains("This certificate expired on 2021-01-01."))

            // Not a certificate: the upload's own message, nothing changed.
            let notCertificate = try await admin.postMultipart(path, ["baseVersion": "2", "enabled": "on", "hosts": "api.northwind.example"],
                                                               files: ["upload": ("key.pem", Array("-----BEGIN PRIVATE KEY-----\nMIIB\n-----END PRIVATE KEY-----\n".utf8))])
            #expect(notCertificate.status == .unprocessableContent)
            #expect(notCertificate.body.contains("The file is not an X.509 certificate in PEM or DER form."))
            #expect(try pinning(console, profile: profile.id) == stored)

            // A forged hidden field is re-read, not trusted.
            let forged = try await admin.postMultipart(path, ["baseVersion": "2", "enabled": "on", "hosts": "api.northwind.example",
                                                              "certificate": Data("not a certificate".utf8).base64EncodedString()], files: [:])
            #expect(forged.status == .unprocessableContent)
            #expect(try pinning(console, profile: profile.id) == stored)

            // Removing the expired one keeps the other.
            let removed = try await admin.postMultipart(path, ["baseVersion": "2", "enabled": "on", "hosts": "api.northwind.example",
                                                               "certificate": String(carried), "remove": "1"], files: [:])
            #expect(removed.status == .seeOther)
            #expect(try pinning(console, profile: profile.id)?.certificates.count == 1)
        }
    }

    @Test func theAPITakesTheCertificateAndReadsTheRestItself() async throws {
        let console = try await TestConsole.make()
        let admin = try await api.token(console, role: .admin)
        let der = Data(try Self.certificate("api.der")).base64EncodedString()
        try await console.test { client in
            let body = #"{"identifier": "com.example.pins", "name": "Pins", "payloads": [{"PayloadType": "com.payloadconsole.sdk.certificate-pinning", "enabled": true, "hosts": ["api.northwind.example"], "certificates": [{"der": "\#(der)", "subject": "CN=lies", "publicKeySHA256": "forged"}]}]}"#
            let created = try await api.call(client, .post, "/api/v1/profiles", token: admin, body: body)
            #expect(created.status == .created)
            let payload = try #require((created.json["payloads"] as? [[String: Any]])?.first)
            let certificate = try #require((payload["certificates"] as? [[String: Any]])?.first)
            #expect(certificate["subject"] as? String == "O=Northwind Traders,CN=api.northwind.example")
            #expect(certificate["publicKeySHA256"] as? String == "VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k=")

            let garbage = #"{"identifier": "com.example.bad", "name": "Bad", "payloads": [{"PayloadType": "com.payloadconsole.sdk.certificate-pinning", "enabled": true, "hosts": ["api.northwind.example"], "certificates": [{"der": "AAAA"}]}]}"#
            let refused = try await api.call(client, .post, "/api/v1/profiles", token: admin, body: garbage)
            #expect(refused.status == .unprocessableContent)
            #expect((refused.json["error"] as? [String: Any])?["field"] as? String == "payloads.0.certificates.0")
            #expect(try console.services.database.readBlocking { try $0.count(ProfileRecord.query()) } == 1)
        }
    }

    @Test func aSimulatedAppConnectsWithThePinAndIsRefusedWithoutIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let group = try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Field Sales", bundleID: "com.example.fieldsales", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
            return try connection.insert(DeviceGroupRecord(name: "Sales", parentID: nil, createdAt: Date())).id
        }
        let certificate = try #require(try? PinnedCertificates.read(try Self.certificate("api.pem")).get())
        let content = ProfileContent(name: "Sales pins")
            .setting(Payload(CertificatePinning(hosts: ["api.northwind.example"], certificates: [certificate])))
        let profile = try await ProfileStore(database: console.services.database, now: { Date() }).create(identifier: "com.example.pins", content: content, by: .system)
        try console.services.database.writeBlocking { _ = try $0.insert(ProfileAssignmentRecord(profileID: profile.id, groupID: group, assignedAt: Date(), assignedBy: "test")) }

        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Sales iPhone", supervised: true, group: group, app: "com.example.fieldsales", console: console)
            let path = "/api/v1/simulator/\(device.udid)/actions"
            let launched = try await api.call(client, .post, path, token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.fieldsales"}"#)
            let pins = try #require((launched.json["state"] as? [String: Any])?["pinnedCertificates"] as? [[String: Any]])
            #expect(pins.first?["certificate"] as? String == "pinned-1")

            let pinned = try await api.call(client, .post, path, token: helpdesk,
                                            body: #"{"action": "connect", "app": "com.example.fieldsales", "url": "https://api.northwind.example/orders", "certificate": "pinned-1"}"#)
            #expect((pinned.json["event"] as? [String: Any])?["result"] as? String == "done")
            let intercepted = try await api.call(client, .post, path, token: helpdesk,
                                                 body: #"{"action": "connect", "app": "com.example.fieldsales", "url": "https://api.northwind.example/orders", "certificate": "interceptor"}"#)
            let event = try #require(intercepted.json["event"] as? [String: Any])
            #expect(event["result"] as? String == "blocked")
            #expect((event["message"] as? String)?.contains("not pinned for api.northwind.example") == true)

            let bad = try await api.call(client, .post, path, token: helpdesk,
                                         body: #"{"action": "connect", "app": "com.example.fieldsales", "url": "https://api.northwind.example", "certificate": "pinned-99"}"#)
            #expect(bad.status == .unprocessableContent)
            #expect((bad.json["error"] as? [String: Any])?["field"] as? String == "certificate")
        }
    }
}
