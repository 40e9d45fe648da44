@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Synchronization
import Testing

/// An admin lets a real device leave management: the policy stops following it, its waiting
/// policy commands are taken back, and it is asked — the lock first, then the apps the catalog
/// says go with management, then the policy, then the MDM profile itself, named from the
/// device's own list. Nothing is deleted from the console's records; enrolling again makes it
/// managed again.
@Suite struct MDMReleaseTests {
    typealias Managed = MDMPolicySyncTests.Managed

    /// The kiosk of `MDMAppInstallTests` with its app and its lock installed and acknowledged.
    func lockedKiosk() async throws -> Managed {
        let managed = try await MDMAppInstallTests().installedAndListed()
        #expect(try await managed.sync.run().installs == 1)
        var command = try await managed.device.idle()
        while let next = command {
            command = try await managed.device.report("Acknowledged", next)
        }
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.installedDigest != nil)
        return managed
    }

    func release(_ managed: Managed, as role: Role, removeFirst: Bool = true) async throws -> (status: HTTPResponse.Status, page: String) {
        let result = Mutex<(HTTPResponse.Status, String)>((.ok, ""))
        try await managed.console.test { client in
            let browser = try await DeviceWorkspaceTests().signedIn(managed.console, client, "\(role)-\(UUID().uuidString.prefix(6))@example.com", role)
            _ = try await browser.get("/devices/\(managed.device.device)")
            let posted = try await browser.post("/devices/\(managed.device.device)/mdm/release", removeFirst ? ["removeFirst": "on"] : [:])
            let page = posted.status == .seeOther ? try await browser.get("/devices/\(managed.device.device)").body : posted.body
            result.withLock { $0 = (posted.status, page) }
        }
        return result.withLock { $0 }
    }

    @Test func theDeviceIsAskedToRemoveTheConsolesThingsInOrderThenItsMDMProfile() async throws {
        let managed = try await lockedKiosk()
        // A policy change still waiting when the admin decides: taken back.
        try await managed.assign(try await managed.profile("Exam rules", [MDMPolicySyncTests.allowlist]))
        try await managed.sync.run()
        let waiting = try #require(try managed.policyCommands().last { $0.status == .queued })

        let (status, page) = try await release(managed, as: .admin)
        #expect(status == .seeOther)
        #expect(page.contains("Leaving management") && !page.contains(#"id="release-device""#), "asked once")
        #expect(try managed.device.commands().first { $0.uuid == waiting.uuid }?.status == .cancelled)
        let steps = try managed.device.commands().filter { $0.status == .queued }.map(\.command.summary)
        // The policy profile never reached it (its install was taken back): nothing to remove of it.
        #expect(steps == ["List installed profiles", "Remove profile: Single App Mode", "Remove app: \(MDMAppInstallTests.lobby)",
                          "Remove profile: Device management (the MDM profile)"])
        #expect(try managed.device.fixture.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "device.released")) }.count == 1)

        // The policy no longer follows it: a new assignment sends it nothing.
        try await managed.assign(try await managed.profile("Later rules", [Payload(Logging(level: .warning))]))
        #expect(try await managed.sync.run().installs == 0)

        // The device lists its profiles; the last step names its MDM profile from that list.
        let list = try await managed.device.idle()
        var next = try await managed.device.report("Acknowledged", list, [("ProfileList", .array([.dictionary([
            ("PayloadIdentifier", .string(EnrollmentProfile.identifierPrefix + "link-7")), ("PayloadUUID", .string("U-1")),
            ("IsManaged", .boolean(true)), ("PayloadContent", .array([])),
        ])]))])
        var sent: [PropertyList] = []
        while let command = next {
            sent.append(command["Command"] ?? .dictionary([]))
            next = try await managed.device.report("Acknowledged", command)
        }
        #expect(sent.map { $0["RequestType"] } == [.string("RemoveProfile"), .string("RemoveApplication"), .string("RemoveProfile")])
        #expect(sent.first?["Identifier"] == .string(DevicePolicyProfiles.singleAppModeIdentifier))
        #expect(sent.dropFirst().first?["Identifier"] == .string(MDMAppInstallTests.lobby))
        #expect(sent.last?["Identifier"] == .string(EnrollmentProfile.identifierPrefix + "link-7"))

        // It checks out: unenrolled, and nothing about it deleted.
        let checkOut = try CheckInMessage.read(.dictionary([("MessageType", .string("CheckOut")), ("Topic", .string("t")), ("UDID", .string("00008030-001A2B3C"))]))
        try await managed.device.fixture.checkIns.handle(checkOut, signedBy: "AA01")
        #expect(try managed.device.fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) }?.state == .unenrolled)
        #expect(try managed.device.fixture.read { try $0.find(DeviceRecord.self, id: managed.device.device) } != nil)
        #expect(try managed.device.commands().count >= 8, "its history stays")
    }

    @Test func withoutRemovingFirstOnlyTheMDMProfileGoesAndEnrollingAgainManagesItAgain() async throws {
        let managed = try await lockedKiosk()
        _ = try await release(managed, as: .admin, removeFirst: false)
        #expect(try managed.device.commands().filter { $0.status == .queued }.map(\.requestType) == [.profileList, .removeProfile])
        let again = try await release(managed, as: .admin)
        #expect(again.page.contains("already leaving management"))

        try await managed.device.fixture.issue("AA02")
        _ = try await managed.device.fixture.checkIns.handle(MDMCheckInTests.authenticate(), signedBy: "AA02")
        #expect(try managed.device.fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) }?.releaseRequestedAt == nil)
        try await managed.services.database.write { try MDMPolicyReports.markDue([managed.device.device], connection: $0) }
        #expect(try await managed.sync.run().appInstalls + (try await managed.sync.run().installs) > 0, "followed again")
    }

    @Test func onlyAnAdminMayLetADeviceLeave() async throws {
        let managed = try await lockedKiosk()
        let (status, _) = try await release(managed, as: .helpdesk)
        #expect(status == .forbidden)
        #expect(try managed.device.fixture.read { try $0.fetchOne(MDMDeviceRecord.query()) }?.releaseRequestedAt == nil)
        #expect(try managed.device.commands().allSatisfy { $0.requestType != .removeProfile })
    }
}
