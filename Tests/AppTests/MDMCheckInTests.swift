@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// What a real device's check-in messages do once its signature names a certificate the
/// console issued: it enrolls into the link's group, keeps its record when it enrolls again,
/// gives its push token, and leaves without anything being deleted. A certificate names one
/// device only.
@Suite struct MDMCheckInTests {
    struct Fixture {
        let console: TestConsole
        let group: RecordID<DeviceGroupRecord>
        var checkIns: MDMCheckIns { MDMCheckIns(database: console.services.database, now: console.services.config.now) }

        /// A certificate as SCEP issues it for an enrollment link of the group.
        func issue(_ serial: String) async throws {
            try await console.services.database.write { connection in
                _ = try connection.insert(MDMCertificateRecord(serial: serial, fingerprint: "fp-" + serial, linkID: nil, groupID: group, deviceID: nil,
                                                               subject: "CN=device", issuedAt: Date(), notAfter: Date().addingTimeInterval(86_400 * 365)))
            }
        }

        func read<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) throws -> T {
            try console.services.database.readBlocking(body)
        }
    }

    func fixture() async throws -> Fixture {
        let console = try await TestConsole.make()
        let group = try await console.services.database.write { try $0.insert(DeviceGroupRecord(name: "Clinic iPads", parentID: nil, createdAt: Date())).id }
        return Fixture(console: console, group: group)
    }

    static func authenticate(udid: String = "00008030-001A2B3C", serial: String? = "F9FXK1LMN") -> CheckInMessage {
        var entries: [(String, PropertyList)] = [("MessageType", .string("Authenticate")), ("Topic", .string("com.apple.mgmt.External.test")),
                                                 ("UDID", .string(udid)), ("OSVersion", .string("18.1")), ("ProductName", .string("iPad13,1"))]
        if let serial { entries.append(("SerialNumber", .string(serial))) }
        return try! CheckInMessage.read(.dictionary(entries))
    }

    static func tokenUpdate(udid: String = "00008030-001A2B3C", unlock: Bool) -> CheckInMessage {
        var entries: [(String, PropertyList)] = [("MessageType", .string("TokenUpdate")), ("Topic", .string("com.apple.mgmt.External.test")),
                                                 ("UDID", .string(udid)), ("Token", .data([0xAB, 0xCD])), ("PushMagic", .string("magic"))]
        if unlock { entries.append(("UnlockToken", .data([1, 2, 3]))) }
        return try! CheckInMessage.read(.dictionary(entries))
    }

    @Test func aDeviceEnrollsIntoTheLinksGroupAndIsAskedForItsInventoryOnce() async throws {
        let fixture = try await fixture()
        try await fixture.issue("AA01")
        let id = try #require(try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01"))
        let device = try fixture.read { try $0.require(DeviceRecord.self, id: id) }
        #expect(device.groupID == fixture.group && device.name == "iPad (F9FXK1LMN)" && device.serialNumber == "F9FXK1LMN" && device.osVersion == "18.1")
        #expect(try fixture.read { try $0.fetchOne(MDMCertificateRecord.query().filter("serial", .equal, "AA01")) }?.deviceID == id)
        try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01")
        let queued = try fixture.read { try $0.fetch(DeviceCommandRecord.query().order(by: "id")).map(\.requestType) }
        #expect(queued == [.deviceInformation, .securityInfo, .installedApplicationList, .profileList], "no duplicates while they wait")
        #expect(try fixture.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "device.enrolled")) }.count == 2)
    }

    @Test func aDeviceThatEnrollsAgainKeepsItsRecordAndItsOldCertificateStops() async throws {
        let fixture = try await fixture()
        try await fixture.issue("AA01")
        let first = try #require(try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01"))
        let hal = try await fixture.console.addUser("hal@example.com", role: .helpdesk)
        try await fixture.console.services.notes.add("Screen cracked", to: first, by: Principal(user: hal, tokenID: nil))
        // Erased and enrolled again: a new UDID is possible on some models; the serial stays.
        try await fixture.issue("BB02")
        let again = try await fixture.checkIns.handle(Self.authenticate(udid: "00008030-FFFF0000", serial: "f9fxk1lmn"), signedBy: "BB02")
        #expect(again == first)
        #expect(try fixture.read { try $0.count(DeviceRecord.query()) } == 1)
        #expect(try fixture.read { try $0.count(DeviceNoteRecord.query()) } == 1)
        let old = try #require(try fixture.read { try $0.fetchOne(MDMCertificateRecord.query().filter("serial", .equal, "AA01")) })
        #expect(old.revokedAt != nil)
        await #expect(throws: MDMCheckIns.Refusal.revokedCertificate) { try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01") }
    }

    @Test func aCertificateNamesOneDeviceAndNothingChangesWhenRefused() async throws {
        let fixture = try await fixture()
        try await fixture.issue("AA01")
        try await fixture.issue("BB02")
        try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01")
        try await fixture.checkIns.handle(Self.authenticate(udid: "00008030-0000BBBB", serial: "G7GXK2"), signedBy: "BB02")
        let before = try fixture.read { try $0.fetch(MDMDeviceRecord.query().order(by: "id")) }.map { "\($0.udid) \($0.certificateSerial ?? "")" }

        await #expect(throws: MDMCheckIns.Refusal.anotherDevicesCertificate) {
            try await fixture.checkIns.handle(Self.authenticate(udid: "00008030-0000BBBB", serial: "G7GXK2"), signedBy: "AA01")
        }
        await #expect(throws: MDMCheckIns.Refusal.anotherDevicesCertificate) {
            try await fixture.checkIns.handle(Self.tokenUpdate(udid: "00008030-0000BBBB", unlock: false), signedBy: "AA01")
        }
        await #expect(throws: MDMCheckIns.Refusal.unknownCertificate) { try await fixture.checkIns.handle(Self.authenticate(), signedBy: "NOT-ISSUED") }
        await #expect(throws: MDMCheckIns.Refusal.notAuthenticated) {
            try await fixture.checkIns.handle(Self.tokenUpdate(udid: "00008030-NEVERSEEN", unlock: false), signedBy: "AA01")
        }
        let after = try fixture.read { try $0.fetch(MDMDeviceRecord.query().order(by: "id")) }.map { "\($0.udid) \($0.certificateSerial ?? "")" }
        #expect(after == before)
        #expect(try fixture.read { try $0.fetch(MDMDeviceRecord.query()) }.allSatisfy { $0.pushToken == nil })
    }

    @Test func theLatestPushTokenIsKeptAndTheUnlockTokenOutlivesATokenUpdateWithoutIt() async throws {
        let fixture = try await fixture()
        try await fixture.issue("AA01")
        try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01")
        try await fixture.checkIns.handle(Self.tokenUpdate(unlock: true), signedBy: "AA01")
        try await fixture.checkIns.handle(Self.tokenUpdate(unlock: false), signedBy: "AA01")
        let enrolled = try #require(try fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) })
        #expect(enrolled.pushToken == Data([0xAB, 0xCD]) && enrolled.pushMagic == "magic")
        #expect(enrolled.unlockToken == Data([1, 2, 3]))
    }

    @Test func checkOutUnenrollsAndRevokesButDeletesNothing() async throws {
        let fixture = try await fixture()
        try await fixture.issue("AA01")
        let id = try #require(try await fixture.checkIns.handle(Self.authenticate(), signedBy: "AA01"))
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
        try await fixture.checkIns.handle(checkOut, signedBy: "AA01")
        let enrolled = try #require(try fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) })
        #expect(enrolled.state == .unenrolled && enrolled.checkedOutAt != nil)
        #expect(try fixture.read { try $0.find(DeviceRecord.self, id: id) } != nil)
        #expect(try fixture.read { try $0.count(DeviceCommandRecord.query()) } == 4, "its history stays")
        #expect(try fixture.read { try $0.fetchOne(MDMCertificateRecord.query()) }?.revokedAt != nil)
        #expect(try fixture.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "device.unenrolled")) }.count == 1)
    }
}

/// `GET /api/v1/devices?q=<serial or UDID>` finds a real device and says it is one, and
/// whether it is still enrolled.
@Suite struct MDMDeviceListTests {
    let api = APITests()

    @Test func theListSaysWhichDevicesAreRealAndWhetherTheyAreEnrolled() async throws {
        let fixture = try await MDMCheckInTests().fixture()
        try await fixture.issue("AA01")
        try await fixture.checkIns.handle(MDMCheckInTests.authenticate(), signedBy: "AA01")
        _ = try await fixture.console.services.database.write { try $0.insert(IdsNeverReusedTests.device("Lobby iPad")) }
        let token = try await api.token(fixture.console, role: .viewer)
        try await fixture.console.test { client in
            for query in ["F9FXK1LMN", "00008030-001A2B3C"] {
                let found = try await api.call(client, .get, "/api/v1/devices?q=\(query)", token: token)
                let devices = try #require(found.json["devices"] as? [[String: Any]])
                #expect(devices.count == 1 && devices.first?["real"] as? Bool == true && devices.first?["enrollment"] as? String == "enrolled", "\(query)")
            }
            let lobby = try await api.call(client, .get, "/api/v1/devices?q=Lobby", token: token)
            let other = try #require((lobby.json["devices"] as? [[String: Any]])?.first)
            #expect(other["real"] as? Bool == false && other["enrollment"] is NSNull)
        }
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
        try await fixture.checkIns.handle(checkOut, signedBy: "AA01")
        try await fixture.console.test { client in
            let found = try await api.call(client, .get, "/api/v1/devices?q=F9FXK1LMN", token: token)
            #expect((found.json["devices"] as? [[String: Any]])?.first?["enrollment"] as? String == "unenrolled")
        }
    }
}

/// The device list's kind filter: real devices by their MDM state, or the simulated ones.
@Suite struct MDMDeviceKindFilterTests {
    let api = APITests()

    @Test func theListFiltersRealDevicesByEnrollmentAndDeadPushTokens() async throws {
        let fixture = try await MDMCheckInTests().fixture()
        for (serial, udid, number) in [("AA01", "00008030-00000001", "SER01"), ("BB02", "00008030-00000002", "SER02"), ("CC03", "00008030-00000003", "SER03")] {
            try await fixture.issue(serial)
            try await fixture.checkIns.handle(MDMCheckInTests.authenticate(udid: udid, serial: number), signedBy: serial)
        }
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-00000002"))]))
        try await fixture.checkIns.handle(checkOut, signedBy: "BB02")
        try await fixture.console.services.database.write { connection in
            _ = try connection.execute("UPDATE mdm_devices SET pushTokenDeadAt = \(Date()), pushTokenDeadReason = 'Unregistered' WHERE udid = '00008030-00000003'")
            _ = try connection.insert(IdsNeverReusedTests.device("Lobby iPad"))
        }
        let token = try await api.token(fixture.console, role: .viewer)
        try await fixture.console.test { client in
            func serials(_ kind: String) async throws -> [String] {
                let answer = try await api.call(client, .get, "/api/v1/devices?kind=\(kind)", token: token)
                return (answer.json["devices"] as? [[String: Any]] ?? []).compactMap { $0["serialNumber"] as? String }.sorted()
            }
            #expect(try await serials("real") == ["SER01", "SER02", "SER03"])
            #expect(try await serials("enrolled") == ["SER01", "SER03"])
            #expect(try await serials("unenrolled") == ["SER02"])
            #expect(try await serials("pushDead") == ["SER03"])
            #expect(try await serials("simulated").count == 1)
            let refused = try await api.call(client, .get, "/api/v1/devices?kind=robot", token: token)
            #expect(refused.status == .badRequest && (refused.json["error"] as? [String: Any])?["field"] as? String == "kind")
        }
    }
}
