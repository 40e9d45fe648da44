@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Signing
import Storage
import Testing

/// The admin's side of enrolling real devices: the push certificate (its topic kept across
/// renewals unless the admin confirms), and one-time enrollment links whose profile names the
/// console's endpoints, expires, and is refused once used or expired.
@Suite struct MDMEnrollmentAPITests {
    let api = APITests()

    static func push(_ name: String) throws -> String {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../SigningTests/Certificates/\(name)").standardizedFileURL
        return try String(contentsOf: url, encoding: .utf8)
    }

    static let topic = "com.apple.mgmt.External.6b1c0d5e-31a7-4c5d-9b0e-2f1e3c4a5b6d"

    func upload(_ client: any TestClientProtocol, _ file: String, token: String, query: String = "") async throws
        -> (status: HTTPResponse.Status, headers: HTTPFields, json: [String: Any]) {
        let response = try await client.execute(uri: "/api/v1/mdm/push-certificate" + query, method: .put,
                                                headers: [.authorization: "Bearer \(token)", .contentType: "application/x-pem-file"],
                                                body: ByteBuffer(string: try Self.push(file)))
        let json = (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:]
        return (response.status, response.headers, json)
    }

    @Test func thePushCertificateKeepsItsTopicUnlessTheAdminConfirmsTheChange() async throws {
        let console = try await TestConsole.make()
        let admin = try await api.token(console, role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        try await console.test { client in
            #expect(try await api.call(client, .get, "/api/v1/mdm/push-certificate", token: admin).status == .notFound)
            #expect(try await upload(client, "MDMPush/push.pem", token: helpdesk).status == .forbidden)

            let first = try await upload(client, "MDMPush/push.pem", token: admin)
            #expect(first.status == .ok)
            #expect(first.json["topic"] as? String == Self.topic)
            #expect(first.json["renewalDue"] as? Bool == false)
            #expect((first.json["fingerprint"] as? String)?.count == 95)

            let renewed = try await upload(client, "MDMPush/push-renewed.pem", token: admin)
            #expect(renewed.status == .ok, "a renewal keeps the topic")
            #expect(renewed.json["fingerprint"] as? String != first.json["fingerprint"] as? String)

            let other = try await upload(client, "MDMPush/push-other-topic.pem", token: admin)
            #expect(other.status == .conflict)
            #expect(api.errorCode(other.json) == "topic_changed")
            let stored = try await api.call(client, .get, "/api/v1/mdm/push-certificate", token: admin)
            #expect(stored.json["topic"] as? String == Self.topic, "the refused certificate changed nothing")
            #expect(stored.json["privateKey"] == nil)

            let confirmed = try await upload(client, "MDMPush/push-other-topic.pem", token: admin, query: "?confirmTopicChange=true")
            #expect(confirmed.status == .ok)
            #expect(confirmed.json["topic"] as? String != Self.topic)

            let notPush = try await upload(client, "MDMPush/not-push.pem", token: admin)
            #expect(notPush.status == .unprocessableContent)
            #expect(api.errorCode(notPush.json) == "not_a_push_certificate")
            let keyless = try await upload(client, "api.pem", token: admin)
            #expect(api.errorCode(keyless.json) == "invalid_push_certificate")
        }
        let entries = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "mdm.push_certificate_set")) }
        #expect(entries.count == 3)
        #expect(entries.allSatisfy { !($0.after ?? "").contains("PRIVATE KEY") })
    }

    @Test func anEnrollmentLinkAnswersItsProfileUntilItExpires() async throws {
        let console = try await TestConsole.make()
        let admin = try await api.token(console, role: .admin)
        let group = try await console.services.database.write { try $0.insert(DeviceGroupRecord(name: "Exam hall", parentID: nil, createdAt: Date())).id }
        try await console.test { client in
            let early = try await api.call(client, .post, "/api/v1/enrollments", token: admin, body: #"{"group": \#(group)}"#)
            #expect(early.status == .conflict)
            #expect(api.errorCode(early.json) == "push_certificate_missing")
            #expect(try await upload(client, "MDMPush/push.pem", token: admin).status == .ok)

            let unknownGroup = try await api.call(client, .post, "/api/v1/enrollments", token: admin, body: #"{"group": 999}"#)
            #expect(unknownGroup.status == .unprocessableContent)
            #expect((unknownGroup.json["error"] as? [String: Any])?["field"] as? String == "group")
            let tooLong = try await api.call(client, .post, "/api/v1/enrollments", token: admin, body: #"{"group": \#(group), "expiresInHours": 9000}"#)
            #expect((tooLong.json["error"] as? [String: Any])?["field"] as? String == "expiresInHours")

            let made = try await api.call(client, .post, "/api/v1/enrollments", token: admin, body: #"{"group": \#(group), "expiresInHours": 2}"#)
            #expect(made.status == .created)
            let profileURL = try #require(made.json["profileURL"] as? String)
            let pageURL = try #require(made.json["url"] as? String)
            #expect(profileURL.hasPrefix("http://127.0.0.1:8080/mdm/enroll/"))
            let profilePath = String(profileURL.dropFirst("http://127.0.0.1:8080".count))
            let pagePath = String(pageURL.dropFirst("http://127.0.0.1:8080".count))

            let profile = try await client.execute(uri: profilePath, method: .get)
            #expect(profile.status == .ok)
            #expect(profile.headers[.contentType] == "application/x-apple-aspen-config")
            let xml = String(decoding: profile.body.readableBytesView, as: UTF8.self)
            #expect(xml.contains(Self.topic), "the push topic, inside the signed profile")
            #expect(xml.contains("http://127.0.0.1:8080/mdm/scep"))
            #expect(xml.contains("http://127.0.0.1:8080/mdm/checkin"))
            let page = try await client.execute(uri: pagePath, method: .get)
            #expect(page.status == .ok)
            #expect(String(buffer: page.body).contains("Exam hall"))

            // The database keeps hashes: neither the link nor its challenge is stored.
            let token = String(profilePath.split(separator: "/")[2])
            let rows = try console.services.database.readBlocking { try $0.fetch(MDMEnrollmentLinkRecord.query()) }
            #expect(rows.count == 1)
            #expect(rows[0].linkHash != token && !rows[0].challengeHash.contains(EnrollmentLinks.challenge(for: token)))

            console.clock.advance(by: 2 * 3600 + 1)
            let late = try await client.execute(uri: profilePath, method: .get)
            #expect(late.status == .gone)
            #expect(late.headers[.contentType]?.hasPrefix("text/plain") == true)
            #expect(try await client.execute(uri: pagePath, method: .get).status == .gone)
        }
        let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "mdm.enrollment_created")) }
        #expect(audit.map(\.subject) == ["Exam hall"])
    }
}

extension MDMEnrollmentAPITests {
    /// Links handed out are reviewed and, while unused, revoked — by script or on the page: a
    /// revoked link's profile answers 410 and its SCEP challenge can no longer be used.
    @Test func anAdminListsLinksAndRevokesAnUnusedOne() async throws {
        let console = try await TestConsole.make()
        let admin = try await api.token(console, role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let group = try await console.services.database.write { try $0.insert(DeviceGroupRecord(name: "Clinic", parentID: nil, createdAt: Date())).id }
        try await console.test { client in
            #expect(try await upload(client, "MDMPush/push.pem", token: admin).status == .ok)
            var profiles: [String] = []
            for _ in 0..<3 {
                let made = try await api.call(client, .post, "/api/v1/enrollments", token: admin, body: #"{"group": \#(group)}"#)
                profiles.append(String(try #require(made.json["profileURL"] as? String).dropFirst("http://127.0.0.1:8080".count)))
            }
            #expect(try await api.call(client, .get, "/api/v1/enrollments", token: helpdesk).status == .forbidden)
            let firstPage = try await api.call(client, .get, "/api/v1/enrollments?limit=2", token: admin)
            let listed = try #require(firstPage.json["enrollments"] as? [[String: Any]])
            #expect(listed.map { $0["state"] as? String } == ["usable", "usable"])
            #expect(listed.allSatisfy { $0["groupName"] as? String == "Clinic" && $0["url"] == nil }, "a link's address is never shown again")
            let next = try #require(firstPage.json["next"] as? String)
            let rest = try #require(try await api.call(client, .get, next, token: admin).json["enrollments"] as? [[String: Any]])
            #expect(rest.count == 1)
            let newest = try #require(listed.first?["id"] as? Int)

            #expect(try await api.call(client, .delete, "/api/v1/enrollments/\(newest)", token: helpdesk).status == .forbidden)
            let revoked = try await api.call(client, .delete, "/api/v1/enrollments/\(newest)", token: admin)
            #expect(revoked.status == .ok && revoked.json["state"] as? String == "revoked" && revoked.json["revokedAt"] as? String != nil)
            let listedAgain = try #require(try await api.call(client, .get, "/api/v1/enrollments?limit=1", token: admin).json["enrollments"] as? [[String: Any]])
            #expect(listedAgain.first?["state"] as? String == "revoked", "revoked, not passing for a link that ran out")
            let page = try await client.execute(uri: EnrollmentController.pagePath(token: String(profiles[2].split(separator: "/")[2])), method: .get)
            #expect(page.status == .gone && String(buffer: page.body).contains("withdrawn by your admin"))
            #expect(try await client.execute(uri: profiles[2], method: .get).status == .gone)
            #expect(try await client.execute(uri: profiles[1], method: .get).status == .ok, "the others still work")
            let token = String(profiles[2].split(separator: "/")[2])
            let links = EnrollmentLinks(database: console.services.database, now: console.services.config.now)
            // Any certificate stands for what SCEP would issue: the link's challenge decides.
            let authority = try CertificateAuthority.generate(commonName: "Test CA", organisation: "Tests", now: Date())
            let issued = try #require(IssuedCertificate(der: authority.certificateDER))
            #expect(try await links.recordIssue(of: issued, challenge: EnrollmentLinks.challenge(for: token)) == false, "its challenge issues nothing")
            #expect(try await api.call(client, .delete, "/api/v1/enrollments/9999", token: admin).status == .notFound)

            // A link a device used cannot be revoked: the device is unenrolled instead.
            let usedToken = String(profiles[0].split(separator: "/")[2])
            #expect(try await links.recordIssue(of: issued, challenge: EnrollmentLinks.challenge(for: usedToken)))
            let oldest = try #require(rest.first?["id"] as? Int)
            let used = try await api.call(client, .delete, "/api/v1/enrollments/\(oldest)", token: admin)
            #expect(used.status == .conflict && api.errorCode(used.json) == "enrollment_used")
        }
        let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "mdm.enrollment_revoked")) }
        #expect(audit.map(\.subject) == ["Clinic"])
    }
}

/// An admin's own device CA replaces the console's from Settings › Enrollment: checked before
/// anything changes, and put in place over enrolled devices (which it strands) only when the
/// admin confirms.
@Suite struct DeviceAuthorityUploadTests {
    static func file(_ path: String) throws -> [UInt8] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../SigningTests/\(path)").standardizedFileURL
        return Array(try Data(contentsOf: url))
    }

    @Test func anAdminsCAIsCheckedAndReplacesTheConsolesOnlyWhenEnrolledDevicesAreGivenUp() async throws {
        let fixture = try await MDMCheckInTests().fixture()
        let console = fixture.console
        try await console.addUser("ann@example.com", role: .admin)
        try await fixture.issue("AA01")
        _ = try await fixture.checkIns.handle(MDMCheckInTests.authenticate(), signedBy: "AA01")
        let store = DeviceAuthorityStore(database: console.services.database, now: console.services.config.now)
        let generated = try await store.current()
        let otherKey = try Self.file("MDM/Fixtures/scep-client-key.pem")
        let ca = try Self.file("MDM/Fixtures/scep-ca.pem"), key = try Self.file("MDM/Fixtures/scep-ca-key.pem")
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            try await browser.get("/enrollment")
            let refused = try await browser.postMultipart("/enrollment/authority", [:], files: ["certificate": ("ca.pem", ca), "privateKey": ("key.pem", otherKey)])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("does not belong to this CA certificate"))

            let stopped = try await browser.postMultipart("/enrollment/authority", [:], files: ["certificate": ("ca.pem", ca), "privateKey": ("key.pem", key)])
            #expect(stopped.status == .conflict)
            #expect(stopped.body.contains("One device is enrolled"))
            #expect(try await store.stored()?.sha256Fingerprint == generated.sha256Fingerprint, "nothing changed")

            let replaced = try await browser.postMultipart("/enrollment/authority", ["confirmDevicesLost": "on"],
                                                           files: ["certificate": ("ca.pem", ca), "privateKey": ("key.pem", key)])
            #expect(replaced.status == .seeOther)
        }
        let stored = try #require(try await store.stored())
        #expect(stored.certificatePEM == String(decoding: ca, as: UTF8.self))
        let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "mdm.authority_uploaded")) }
        #expect(audit.count == 1)
        #expect(audit.first?.before == "SHA-256 \(generated.sha256Fingerprint)")
        #expect(audit.first?.after?.contains("1 enrolled device must enroll again") == true)
    }
}

extension MDMEnrollmentAPITests {
    /// An admin's own CA, by script as on the page: checked before anything changes, and not
    /// put in place over enrolled devices (whose certificates it did not issue) unless confirmed.
    @Test func anAdminPutsTheirOwnDeviceCAInPlaceThroughTheAPI() async throws {
        let console = try await TestConsole.make()
        let admin = try await api.token(console, role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let own = try CertificateAuthority.generate(commonName: "Clinic Device CA", organisation: "Clinic", now: Date())
        @Sendable func put(_ client: any TestClientProtocol, _ body: String, query: String = "") async throws
            -> (status: HTTPResponse.Status, json: [String: Any]) {
            let response = try await client.execute(uri: "/api/v1/mdm/authority" + query, method: .put,
                                                    headers: [.authorization: "Bearer \(admin)", .contentType: "application/x-pem-file"],
                                                    body: ByteBuffer(string: body))
            return (response.status, (try? JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))) as? [String: Any] ?? [:])
        }
        try await console.test { client in
            #expect(try await api.call(client, .get, "/api/v1/mdm/authority", token: helpdesk).status == .forbidden)
            let made = try await api.call(client, .get, "/api/v1/mdm/authority", token: admin)
            #expect(made.status == .ok && (made.json["subject"] as? String)?.contains("Payload Console Device CA") == true && made.json["privateKeyPEM"] == nil)

            let junk = try await put(client, "-----BEGIN CERTIFICATE-----\nnot one\n-----END CERTIFICATE-----\n")
            #expect(junk.status == .unprocessableContent && api.errorCode(junk.json) == "invalid_authority")
            let keyless = try await put(client, own.certificatePEM)
            #expect(keyless.status == .unprocessableContent && api.errorCode(keyless.json) == "invalid_authority")
            #expect(try await api.call(client, .get, "/api/v1/mdm/authority", token: admin).json["fingerprint"] as? String == made.json["fingerprint"] as? String,
                    "nothing changed")

            // A device enrolled with the current CA: replacing it needs the admin's word.
            let device = try #require(try DeviceListTests.seedDevices(console, ["Ward iPad"]).first)
            try await console.services.database.write { connection in
                _ = try connection.insert(MDMDeviceRecord(deviceID: device, udid: "00008030-00000009", state: .enrolled, topic: "com.apple.mgmt.test",
                                                          enrolledAt: Date(), notNowRun: []))
            }
            let refused = try await put(client, own.certificatePEM + own.privateKeyPEM)
            #expect(refused.status == .conflict && api.errorCode(refused.json) == "devices_enrolled")
            let replaced = try await put(client, own.certificatePEM + own.privateKeyPEM, query: "?confirmDevicesLost=true")
            #expect(replaced.status == .ok && replaced.json["fingerprint"] as? String == own.sha256Fingerprint)
            #expect(try await api.call(client, .get, "/api/v1/mdm/authority", token: admin).json["subject"] as? String == own.subject)
            #expect(try await put(client, own.certificatePEM + own.privateKeyPEM, query: "?confirm=yes").status == .badRequest)
        }
        let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "mdm.authority_uploaded")) }
        #expect(audit.map(\.subject) == [own.subject])
    }
}

extension MDMEnrollmentAPITests {
    /// Settings › Enrollment shows the newest links and pages to older ones, so a link made
    /// weeks ago can still be found and revoked.
    @Test func theEnrollmentPagePagesThroughOlderLinks() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let group = try await console.services.database.write { try $0.insert(DeviceGroupRecord(name: "Clinic", parentID: nil, createdAt: Date())).id }
        let links = EnrollmentLinks(database: console.services.database, now: console.services.config.now)
        let admin = Actor(userID: nil, email: "ann@example.com")
        for _ in 0..<(EnrollmentPageController.linksPerPage + 5) { _ = try await links.create(group: group, lifetimeHours: 24, by: admin) }
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            let newest = try await browser.get("/enrollment")
            #expect(newest.body.components(separatedBy: "aria-label=\"Revoke the link").count - 1 == EnrollmentPageController.linksPerPage)
            let older = try #require(newest.body.firstMatch(of: /href="(\/enrollment\?before=\d+)#links"/)?.1)
            #expect(!newest.body.contains("Newest links"))
            let next = try await browser.get(String(older))
            #expect(next.body.components(separatedBy: "aria-label=\"Revoke the link").count - 1 == 5)
            #expect(next.body.contains("Newest links") && !next.body.contains("Older links"))
            let odd = try await browser.get("/enrollment?before=zero")
            #expect(odd.status == .ok && odd.body.components(separatedBy: "aria-label=\"Revoke the link").count - 1 == EnrollmentPageController.linksPerPage)
        }
    }
}
