@testable import App
import Domain
import Foundation
import Signing
import Storage
import Synchronization
import Testing

/// A real device's profiles follow its effective policy: an assignment queues one signed
/// install the device can read, later saves replace a waiting install instead of adding
/// another, an unassignment removes the profile, Single App Mode waits for supervision and
/// its app, a conflict changes nothing, and a refused install waits before it is tried again.
@Suite struct MDMPolicySyncTests {
    struct Managed {
        let device: MDMCommandExchangeTests.Enrolled
        var console: TestConsole { device.fixture.console }
        var services: Services { console.services }
        var sync: MDMPolicySync { MDMFeature.policySync(services) }

        /// The device's page as a viewer reads it.
        func page() async throws -> String {
            try await page("/devices/\(device.device)", role: .viewer)
        }

        func page(_ path: String, role: Role) async throws -> String {
            let body = Mutex("")
            try await console.test { client in
                let page = try await DeviceWorkspaceTests().signedIn(console, client, "\(role)@example.com", role).get(path).body
                body.withLock { $0 = page }
            }
            return body.withLock { $0 }
        }

        func policyCommands() throws -> [DeviceCommandRecord] {
            try device.commands().filter { $0.queuedBy == MDMPolicySync.queuedBy && [.installProfile, .removeProfile].contains($0.requestType) }
        }

        func held(_ identifier: String) throws -> MDMDeviceProfileRecord? {
            try device.fixture.read { try $0.fetchOne(MDMDeviceProfileRecord.query().filter("identifier", .equal, identifier)) }
        }

        func profile(_ name: String, _ payloads: [Payload]) async throws -> RecordID<ProfileRecord> {
            let store = services.profileStore
            let profile = try await store.create(identifier: "com.example.\(name.lowercased().replacingOccurrences(of: " ", with: "-"))",
                                                 content: ProfileContent(name: name), by: .system)
            try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: name, payloads: payloads), note: "", by: .system)
            return profile.id
        }

        func save(_ profile: RecordID<ProfileRecord>, _ payloads: [Payload]) async throws {
            let name = try device.fixture.read { try $0.require(ProfileRecord.self, id: profile) }.name
            try await services.profileStore.saveVersion(of: profile, basedOn: nil, content: ProfileContent(name: name, payloads: payloads), note: "", by: .system)
        }

        func assign(_ profile: RecordID<ProfileRecord>) async throws {
            _ = try await services.assignments.assign(profile, to: device.fixture.group, by: .system)
        }

        /// The device's turn that takes the next command, answered as `status`.
        func answerNext(_ status: String, _ extra: [(String, PropertyList)] = []) async throws -> PropertyList? {
            let command = try await device.idle()
            _ = try await device.report(status, command, extra)
            return command
        }
    }

    /// An enrolled device whose inventory requests are out of the way.
    func managed() async throws -> Managed {
        let device = try await MDMCommandExchangeTests().enrolled()
        try await device.fixture.console.services.database.write { _ = try $0.execute("DELETE FROM device_commands") }
        return Managed(device: device)
    }

    static let allowlist = Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.dictionary"]))

    /// The profile inside an InstallProfile, its signature checked.
    static func installed(_ command: PropertyList?) throws -> PropertyList {
        guard case .data(let bytes)? = command?["Command"]?["Payload"] else { throw Missing.payload }
        let signed = try SignedProfile.read(bytes)
        #expect(signed.signer != nil, "signed by the console")
        return try PropertyListReader.read(Data(signed.content))
    }

    enum Missing: Error { case payload }

    @Test func anAssignmentQueuesOneSignedInstallThatCarriesTheEffectivePolicy() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist, Payload(Logging(level: .information))]))
        let summary = try await managed.sync.run()
        #expect(summary.installs == 1 && summary.removals == 0)
        let queued = try managed.policyCommands()
        #expect(queued.map(\.requestType) == [.installProfile] && queued[0].parameters.profileIdentifier == DevicePolicyProfiles.policyIdentifier)

        let command = try await managed.device.idle()
        #expect(MDMCommandExchangeTests.requestType(command) == "InstallProfile")
        let profile = try Self.installed(command)
        #expect(profile["PayloadIdentifier"] == .string(DevicePolicyProfiles.policyIdentifier))
        let xml = profile.xmlDocument()
        #expect(xml.contains("com.example.dictionary") && xml.contains("autonomousSingleAppModePermittedAppIDs"), "the ASAM allowlist")
        #expect(xml.contains("com.payloadconsole.sdk"), "the SDK settings, as an export carries them")

        _ = try await managed.device.report("Acknowledged", command)
        let held = try #require(try managed.held(DevicePolicyProfiles.policyIdentifier))
        #expect(held.installedDigest == queued[0].parameters.profileDigest && held.commandUUID == nil)
        #expect(try await managed.sync.run().installs == 0, "in line: nothing more")
        #expect(try managed.policyCommands().count == 1)
    }

    /// The device's list after an install, as iOS gives it: the console's profile by its
    /// identifier and UUID.
    static func listing(_ profile: PropertyList) -> [(String, PropertyList)] {
        [("ProfileList", .array([.dictionary([("PayloadIdentifier", profile["PayloadIdentifier"]!), ("PayloadUUID", profile["PayloadUUID"]!),
                                               ("IsManaged", .boolean(true)), ("PayloadContent", .array([]))])]))]
    }

    @Test func theDevicesListIsAskedForAfterAnInstallAndAMissingProfileIsInstalledAgain() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist]))
        try await managed.sync.run()
        let install = try await managed.device.idle()
        let profile = try Self.installed(install)
        let list = try await managed.device.report("Acknowledged", install)
        #expect(MDMCommandExchangeTests.requestType(list) == "ProfileList", "asked once the policy's commands are done")
        _ = try await managed.device.report("Acknowledged", list, Self.listing(profile))
        #expect(try managed.held(DevicePolicyProfiles.policyIdentifier)?.installedDigest != nil, "the list agrees")
        #expect(try await managed.sync.run().installs == 0)

        // A later list without it (the inventory's daily one): the profile is installed again.
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceCommandRecord(deviceID: managed.device.device, command: DeviceCommand(requestType: .profileList),
                                                          queuedAt: managed.console.clock.now, queuedBy: "Inventory"))
        }
        _ = try await managed.answerNext("Acknowledged", [("ProfileList", .array([]))])
        #expect(try managed.held(DevicePolicyProfiles.policyIdentifier)?.installedDigest == nil)
        #expect(try await managed.sync.run().installs == 1)
        let page = try await managed.page()
        #expect(page.contains("Out of step") && page.contains("Being installed"))
    }

    @Test func aManagedProfileTheConsoleDidNotSendIsShownAndLeftAlone() async throws {
        let managed = try await managed()
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceCommandRecord(deviceID: managed.device.device, command: DeviceCommand(requestType: .profileList),
                                                          queuedAt: managed.console.clock.now, queuedBy: "Inventory"))
        }
        _ = try await managed.answerNext("Acknowledged", [("ProfileList", .array([.dictionary([
            ("PayloadIdentifier", .string("com.other.vpn")), ("PayloadUUID", .string("AB")), ("PayloadDisplayName", .string("Other VPN")),
            ("IsManaged", .boolean(true)), ("PayloadContent", .array([])),
        ])]))])
        try await managed.sync.run()
        #expect(try managed.policyCommands().isEmpty, "nothing removes it")
        let page = try await managed.page()
        #expect(page.contains("did not send") && page.contains("Other VPN"))
    }

    @Test func savesBeforeTheDeviceChecksInReplaceTheWaitingInstall() async throws {
        let managed = try await managed()
        let profile = try await managed.profile("Exam rules", [Self.allowlist])
        try await managed.assign(profile)
        try await managed.sync.run()
        for app in ["com.example.a", "com.example.b", "com.example.c", "com.example.d"] {
            try await managed.save(profile, [Payload(ASAMAllowlist(appIdentifiers: [app]))])
            let summary = try await managed.sync.run()
            #expect(summary.installs == 0 && summary.replaced == 1)
        }
        let queued = try managed.policyCommands()
        #expect(queued.count == 1, "five saves, one install")
        let xml = try Self.installed(try await managed.device.idle()).xmlDocument()
        #expect(xml.contains("com.example.d") && !xml.contains("com.example.c"), "the newest content")
    }

    @Test func anUnassignedPolicyIsRemovedFromTheDevice() async throws {
        let managed = try await managed()
        let profile = try await managed.profile("Exam rules", [Self.allowlist])
        try await managed.assign(profile)
        try await managed.sync.run()
        let install = try await managed.device.idle()
        let list = try await managed.device.report("Acknowledged", install)
        #expect(MDMCommandExchangeTests.requestType(list) == "ProfileList")
        _ = try await managed.device.report("Acknowledged", list, Self.listing(try Self.installed(install)))
        _ = try await managed.services.assignments.unassign(profile, from: managed.device.fixture.group, by: .system)
        #expect(try await managed.sync.run().removals == 1)
        let command = try await managed.device.idle()
        #expect(MDMCommandExchangeTests.requestType(command) == "RemoveProfile")
        #expect(command?["Command"]?["Identifier"] == .string(DevicePolicyProfiles.policyIdentifier))
        _ = try await managed.device.report("Acknowledged", command)
        #expect(try managed.held(DevicePolicyProfiles.policyIdentifier)?.installedDigest == nil)
        #expect(try await managed.sync.run() == MDMPolicySync.Summary(), "nothing due, nothing changed")
    }

    @Test func singleAppModeWaitsForSupervisionAndItsAppThenTravelsAlone() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Kiosk", [Payload(SingleAppMode(appIdentifier: "com.example.kiosk"))]))
        try await managed.sync.run()
        #expect(try managed.policyCommands().isEmpty)
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.heldBack?.contains("supervised") == true)

        // The device reports it is supervised: its record changes, which marks it due.
        try await managed.services.database.write { _ = try $0.execute("UPDATE devices SET isSupervised = 1 WHERE id = \(managed.device.device)") }
        try await managed.sync.run()
        #expect(try managed.policyCommands().isEmpty)
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.heldBack?.contains("waits for com.example.kiosk") == true)

        try await managed.services.database.write { connection in
            var device = try connection.require(DeviceRecord.self, id: managed.device.device)
            device.installedApps = ["com.example.kiosk"]
            try connection.update(device)
        }
        #expect(try await managed.sync.run().installs == 1)
        let profile = try Self.installed(try await managed.device.idle())
        #expect(profile["PayloadIdentifier"] == .string(DevicePolicyProfiles.singleAppModeIdentifier))
        #expect(profile.xmlDocument().contains("com.apple.app.lock"))
        #expect(try managed.held(DevicePolicyProfiles.singleAppModeIdentifier)?.heldBack == nil)
    }

    @Test func aSingleAppModeConflictLeavesTheDeviceAsItIs() async throws {
        let managed = try await managed()
        try await managed.services.database.write { _ = try $0.execute("UPDATE devices SET isSupervised = 1 WHERE id = \(managed.device.device)") }
        try await managed.assign(try await managed.profile("Quiz", [Payload(SingleAppMode(appIdentifier: "com.example.quiz")), Self.allowlist]))
        try await managed.assign(try await managed.profile("Exam", [Payload(SingleAppMode(appIdentifier: "com.example.exam"))]))
        try await managed.sync.run()
        #expect(try managed.policyCommands().isEmpty)
        #expect(try managed.held(DevicePolicyProfiles.policyIdentifier)?.heldBack?.contains("different apps") == true)
    }

    @Test func anInstallTheDevicePutsOffSaysSoOnItsPage() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist]))
        try await managed.sync.run()
        _ = try await managed.answerNext("NotNow")
        let page = try await managed.page()
        #expect(page.contains("Put off by the device") && page.contains("It answered Not Now 1 time"))
        #expect(page.contains("Out of step"))
    }

    @Test func aRefusedInstallIsTriedAgainOnlyAfterAPauseThatGrows() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist]))
        try await managed.sync.run()
        _ = try await managed.answerNext("Error", [("ErrorChain", .array([.dictionary([
            ("ErrorCode", .integer(4001)), ("ErrorDomain", .string("MCInstallationErrorDomain")),
            ("LocalizedDescription", .string("The profile could not be installed.")),
        ])]))])
        let failed = try #require(try managed.held(DevicePolicyProfiles.policyIdentifier))
        #expect(failed.failures == 1 && failed.lastError?.contains("could not be installed") == true && failed.installedDigest == nil)
        try await managed.services.database.write { _ = try MDMPolicyReports.markDue([managed.device.device], connection: $0) }
        #expect(try await managed.sync.run().installs == 0, "within the pause: not again")

        managed.console.clock.advance(by: 61)
        let ready = try await managed.services.database.read { try MDMPolicyReports.readyToRetry(at: managed.console.clock.now, connection: $0) }
        #expect(ready.count == 1)
        try await managed.services.database.write { try MDMPolicyReports.markDue(ready, connection: $0) }
        #expect(try await managed.sync.run().installs == 1, "after it: once more")
        // The list asked for after the first install comes first; then the install again.
        var next = try await managed.device.idle()
        if MDMCommandExchangeTests.requestType(next) == "ProfileList" { next = try await managed.device.report("Acknowledged", next, [("ProfileList", .array([]))]) }
        #expect(MDMCommandExchangeTests.requestType(next) == "InstallProfile")
        _ = try await managed.device.report("Error", next)
        let again = try #require(try managed.held(DevicePolicyProfiles.policyIdentifier))
        #expect(again.failures == 2 && again.retryAfter == managed.console.clock.now.addingTimeInterval(240))
    }

    @Test func theImpactPreviewCountsRealDevicesApartAndListsTheCommandsItWillQueue() async throws {
        let managed = try await managed()
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceRecord(name: "Simulated iPad", model: .iPad, osVersion: "18.1", serialNumber: "SIM0001", udid: "SIM-0001",
                                                   isSupervised: true, owner: "", groupID: managed.device.fixture.group, installedApps: [],
                                                   enrolledAt: Date(), lastCheckInAt: nil))
        }
        let profile = try await managed.profile("Exam rules", [Self.allowlist])
        let preview = try await managed.services.profiles.impact(of: .assign(profile, to: managed.device.fixture.group))
        #expect(preview.impact.devicesReached == 2 && preview.impact.realDevicesReached == 1)
        #expect(preview.impact.mdmCommands == [PolicyImpact.MDMCommands(requestType: .installProfile, profile: "Payload Console policy", devices: 1)])
        let view = ImpactView(preview.impact, appNames: [:])
        #expect(view.realDevicesLine == "1 of them is a real device enrolled over MDM; 1 device simulated or added by hand.")
        #expect(view.mdmLines == ["Install profile “Payload Console policy” queued for 1 device"])

        // What the preview said is what the assignment queues.
        try await managed.assign(profile)
        #expect(try await managed.sync.run().installs == 1)
        _ = try await managed.answerNext("Acknowledged")
        let removal = try await managed.services.profiles.impact(of: .unassign(profile, from: managed.device.fixture.group))
        #expect(removal.impact.mdmCommands.map(\.requestType) == [.removeProfile])
    }

    @Test func anAppsManagedConfigurationIsSentWithSettingsAndRemovedWhenItLeavesThePolicy() async throws {
        let managed = try await managed()
        try await managed.services.database.write { connection in
            var device = try connection.require(DeviceRecord.self, id: managed.device.device)
            device.installedApps = ["com.example.kiosk"]
            try connection.update(device)
        }
        let configuration = ManagedAppConfiguration(appIdentifier: "com.example.kiosk", keys: [
            ConfigKey(name: "serverURL", type: .string, required: true, value: .string("https://kiosk.example.com"))])
        let profile = try await managed.profile("Kiosk settings", [Payload(configuration), Payload(ManagedAppConfiguration(appIdentifier: "com.example.absent"))])
        try await managed.assign(profile)
        #expect(try await managed.sync.run().configurations == 1, "only the installed app's")
        let sent = try await managed.device.idle()
        #expect(MDMCommandExchangeTests.requestType(sent) == "Settings")
        guard case .array(let items)? = sent?["Command"]?["Settings"] else { Issue.record("no Settings"); return }
        #expect(items.count == 1 && items[0]["Identifier"] == .string("com.example.kiosk"))
        #expect(items[0]["Configuration"]?["serverURL"] == .string("https://kiosk.example.com"))
        #expect(MDMCommandExchangeTests.requestType(try await managed.device.report("Acknowledged", sent)) == nil, "no profile list after Settings")
        let slot = DeviceAppConfigurations.identifier(of: "com.example.kiosk")
        #expect(try managed.held(slot)?.installedDigest != nil)
        let delivery = try managed.device.fixture.read { try MDMAppConfigurationDelivery.read("com.example.kiosk", connection: $0) }
        #expect(delivery?.summary == "1 real device has the current configuration.")
        let app = try await managed.services.database.write { connection in
            try connection.insert(AppRecord(name: "Kiosk", bundleID: "com.example.kiosk", isManaged: true, isSDKBuilt: true, hasAssessmentEntitlement: false,
                                            iconColor: "#336699", createdAt: Date()))
        }
        #expect(try await managed.page("/apps/\(app.id)/edit", role: .admin).contains("1 real device has the current configuration."))
        // Serving the page ran the background jobs: the daily inventory asked the device too.
        try await managed.services.database.write { _ = try $0.execute("DELETE FROM device_commands WHERE queuedBy = 'Inventory'") }
        #expect(try managed.device.fixture.read { try MDMAppConfigurationDelivery.read("com.example.absent", connection: $0) } == nil)
        #expect(try await managed.sync.run() == MDMPolicySync.Summary())
        // The daily profile list says nothing about configurations: it leaves the app's alone.
        try await managed.services.database.write { connection in
            _ = try connection.insert(DeviceCommandRecord(deviceID: managed.device.device, command: DeviceCommand(requestType: .profileList),
                                                          queuedAt: managed.console.clock.now, queuedBy: "Inventory"))
        }
        _ = try await managed.answerNext("Acknowledged", [("ProfileList", .array([]))])
        #expect(try managed.held(slot)?.installedDigest != nil)
        #expect(try await managed.sync.run() == MDMPolicySync.Summary(), "nothing sent again")

        _ = try await managed.services.assignments.unassign(profile, from: managed.device.fixture.group, by: .system)
        #expect(try await managed.sync.run().configurations == 1)
        let removal = try await managed.device.idle()
        guard case .array(let removed)? = removal?["Command"]?["Settings"] else { Issue.record("no Settings: \(String(describing: removal))"); return }
        #expect(removed.count == 1 && removed[0]["Identifier"] == .string("com.example.kiosk") && removed[0]["Configuration"] == nil,
                "an item without Configuration removes it")
        _ = try await managed.device.report("Acknowledged", removal)
        #expect(try managed.held(slot)?.installedDigest == nil)
    }

    /// A push can be lost (the console that queued stopped before pushing): a device whose
    /// install still waits unsent is pushed again as the install passes five minutes, an
    /// hour…, once each.
    @Test func aDeviceWhoseInstallStillWaitsIsPushedAgainOnceAtEachAge() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist]))
        try await managed.sync.run()
        let clock = managed.console.clock
        #expect(try await managed.sync.devicesToPushAgain(at: clock.now, every: 60).isEmpty, "just pushed")
        clock.advance(by: 5 * 60 + 30)
        #expect(try await managed.sync.devicesToPushAgain(at: clock.now, every: 60) == [managed.device.device])
        clock.advance(by: 60)
        #expect(try await managed.sync.devicesToPushAgain(at: clock.now, every: 60).isEmpty, "once")
        clock.advance(by: 3600 - 5 * 60 - 60)
        #expect(try await managed.sync.devicesToPushAgain(at: clock.now, every: 60) == [managed.device.device], "again at an hour")
        // Installed; the list asked for behind it is handed out in the same turn.
        #expect(MDMCommandExchangeTests.requestType(try await managed.device.report("Acknowledged", try await managed.device.idle())) == "ProfileList")
        clock.advance(by: 5 * 3600)  // six hours after it was queued
        #expect(try await managed.sync.devicesToPushAgain(at: clock.now, every: 60).isEmpty, "sent: nothing to push for")
    }

    /// A second profile whose allowlist adds nothing to the intersection changes no setting: the
    /// preview says none of the devices changes, so it must not queue an install either (the
    /// policy profile's description names its sources, which is no setting).
    @Test func aChangeThatChangesNoSettingQueuesNothing() async throws {
        let managed = try await managed()
        try await managed.assign(try await managed.profile("Exam rules", [Self.allowlist]))
        try await managed.sync.run()
        _ = try await managed.answerNext("Acknowledged")
        let wider = try await managed.profile("Wider", [Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam", "com.example.dictionary", "com.example.maps"]))])
        let preview = try await managed.services.profiles.impact(of: .assign(wider, to: managed.device.fixture.group))
        #expect(preview.impact.devicesChanged == 0)
        #expect(preview.impact.mdmCommands.isEmpty)
        try await managed.assign(wider)
        #expect(try await managed.sync.run().installs == 0)
    }

    @Test func aDeviceMovedToAnotherGroupGetsThatGroupsPolicy() async throws {
        let managed = try await managed()
        let other = try await managed.services.database.write { try $0.insert(DeviceGroupRecord(name: "Exam iPads", parentID: nil, createdAt: Date())).id }
        let profile = try await managed.profile("Exam rules", [Self.allowlist])
        _ = try await managed.services.assignments.assign(profile, to: other, by: .system)
        try await managed.sync.run()
        #expect(try managed.policyCommands().isEmpty)
        try await managed.services.catalog.moveDevice(managed.device.device, to: other, by: .system)
        #expect(try await managed.sync.run().installs == 1)
    }
}
