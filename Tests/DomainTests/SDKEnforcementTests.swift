import Domain
import Foundation
import Testing

/// Compliance and compromised protection as the simulated SDK enforces them, and the status
/// beacon it sends.
@Suite struct SDKEnforcementTests {
    let oldNotes = ComplianceRule(subject: .app(Fixture.notes.bundleID), comparison: .lessThan, version: "5.2", action: .block)
    let oldIOS = ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.10", action: .wipe)

    func device(_ policy: DevicePolicy, os: String = "18.1") -> SimulatedDevice {
        var device = Fixture.device(policy: policy)
        device.osVersion = os
        return device
    }

    @Test func aNonCompliantSDKAppShowsTheBlockerWithTheRule() throws {
        var run = Run(device(DevicePolicy(Compliance(rules: [oldNotes]))))
        run.perform(.launchApp(Fixture.notes.bundleID))
        guard case .blocked(_, let reason) = run.device.screen else { Issue.record("not blocked: \(run.device.screen)"); return }
        #expect(reason.contains("Notes earlier than 5.2"))
        #expect(run.device.complianceState == .blocked)
        // The rule is about SDK apps: an app without the SDK opens as ever.
        run.perform(.home)
        run.perform(.launchApp(Fixture.exam.bundleID))
        #expect(run.device.screen == .app(Fixture.exam.bundleID))
    }

    @Test func updatingTheAppBringsItBackInLine() {
        var run = Run(device(DevicePolicy(Compliance(rules: [oldNotes]))))
        run.perform(.launchApp(Fixture.notes.bundleID))
        let event = run.perform(.setAppVersion(app: Fixture.notes.bundleID, version: "5.10"))
        #expect(event.result == .done)
        #expect(run.device.screen == .app(Fixture.notes.bundleID), "5.10 is later than 5.2")
        #expect(run.device.complianceState == .compliant)
        #expect(run.last?.beaconApp == Fixture.notes.bundleID, "the change of compliance is reported at once")
        #expect(run.perform(.setAppVersion(app: Fixture.notes.bundleID, version: "five")).result == .refused)
    }

    @Test func aWipeRemovesManagedAppsAndTheirDataButKeepsUploadedLogs() {
        var start = device(DevicePolicy(Logging(level: .debug)), os: "17.9")
        start.feedback = [Fixture.notes.bundleID: ["opened": 3], Fixture.personal.bundleID: ["x": 1]]
        var run = Run(start)
        run.perform(.launchApp(Fixture.notes.bundleID))
        run.perform(.emitLog(app: Fixture.notes.bundleID, level: .error, message: "before the wipe", count: 1))
        run.perform(.copy(app: Fixture.notes.bundleID, text: "Patient 4711"))
        #expect(run.uploaded.count == 1)

        // 17.9 is earlier than 17.10: the wipe rule applies as soon as the policy arrives.
        let event = run.perform(.applyPolicy(DevicePolicy(Logging(level: .debug), Compliance(rules: [oldIOS])), conflict: []))
        #expect(event.message.contains("Enterprise wipe"))
        #expect(run.device.apps.map(\.bundleID) == [Fixture.personal.bundleID], "managed apps go, the personal one stays")
        #expect(run.device.feedback[Fixture.notes.bundleID] == nil && run.device.feedback[Fixture.personal.bundleID] == ["x": 1])
        #expect(run.device.pasteboard == nil, "what a managed app copied goes with it")
        #expect(run.device.wipedAt == run.device.clock && run.device.complianceState == .wiped)
        #expect(run.uploaded.count == 1, "the uploaded line is the console's and stays")
        #expect(run.last?.beaconApp != nil)
    }

    @Test func wipeBeatsBlock() {
        let policy = DevicePolicy(Compliance(rules: [oldNotes, oldIOS]))
        #expect(device(policy, os: "17.2").enforcement.action == .wipe)
        #expect(device(policy, os: "18").enforcement.action == .block)
        #expect(device(policy, os: "18").enforcement.brokenRules == [oldNotes])
    }

    @Test func aJailbrokenDeviceIsBlockedOnlyUnderCompromisedProtection() {
        var run = Run(device(DevicePolicy(CompromisedProtection(action: .block))))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        run.perform(.setJailbroken(true))
        guard case .blocked(_, let reason) = run.device.screen else { Issue.record("not blocked"); return }
        #expect(reason.contains("jailbroken"))
        run.perform(.setJailbroken(false))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))

        var unprotected = Run(device(.empty))
        unprotected.perform(.setJailbroken(true))
        unprotected.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(unprotected.device.screen == .app(Fixture.kiosk.bundleID))
    }

    @Test func aJailbrokenDeviceUnderAWipingProtectionIsWiped() {
        var run = Run(device(DevicePolicy(CompromisedProtection(action: .wipe))))
        run.perform(.setJailbroken(true))
        #expect(run.device.wipedAt != nil && !run.device.apps.contains(where: \.isManaged))
    }

    @Test func theBeaconGoesOnUnlockAndOnDemandFromSDKAppsOnly() {
        var run = Run(device(DevicePolicy(Authentication(type: .passcode))))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.last?.beaconApp == nil, "the sign-in screen is not an unlock yet")
        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        #expect(run.last?.beaconApp == Fixture.kiosk.bundleID)
        #expect(run.perform(.sendBeacon(app: Fixture.exam.bundleID)).result == .refused)
        #expect(run.perform(.sendBeacon(app: Fixture.notes.bundleID)).result == .done)
        let beacon = run.device.beacon(from: Fixture.notes.bundleID, deviceName: "Ward iPad", group: "Clinic", user: "ana@example.com")
        #expect(beacon.osVersion == "18.1" && beacon.appVersion == SimulatedDevice.defaultAppVersion)
        #expect(beacon.enrollment == .enrolled && beacon.deviceCompliance == .compliant && beacon.complianceReason == nil)
    }

    @Test func aRuleAboutAnAppTheDeviceLacksDoesNotAct() {
        let rule = ComplianceRule(subject: .app("com.example.absent"), comparison: .lessThan, version: "99", action: .wipe)
        var run = Run(device(DevicePolicy(Compliance(rules: [rule]))))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID) && run.device.wipedAt == nil)
    }

    @Test func iOSVersionsCompareAsApplesDo() {
        var run = Run(device(DevicePolicy(Compliance(rules: [ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.10", action: .block)])), os: "17.10"))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        run.perform(.setOSVersion("17.9"))
        #expect(run.device.complianceState == .blocked)
        #expect(run.perform(.setOSVersion("latest")).result == .refused)
    }
}
