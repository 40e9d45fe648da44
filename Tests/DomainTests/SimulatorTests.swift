import Domain
import Foundation
import Testing

/// A small fleet of apps with the traits the rules look at.
enum Fixture {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let kiosk = SimulatedApp(bundleID: "com.example.kiosk", name: "Kiosk", isManaged: true, isSDKBuilt: true)
    static let exam = SimulatedApp(bundleID: "com.example.exam", name: "Exam", isManaged: true, hasAssessmentEntitlement: true)
    static let notes = SimulatedApp(bundleID: "com.example.notes", name: "Notes", isManaged: true, isSDKBuilt: true)
    static let personal = SimulatedApp(bundleID: "com.social.chat", name: "Chat", isManaged: false)

    static func device(supervised: Bool = true, policy: DevicePolicy = .empty) -> SimulatedDevice {
        SimulatedDevice(isSupervised: supervised, apps: [kiosk, exam, notes, personal], clock: start, policy: policy)
    }
}

/// Runs actions in order and keeps the last outcome.
struct Run {
    var device: SimulatedDevice
    var last: SimulatorOutcome?
    var uploaded: [SimulatedLog] = []

    init(_ device: SimulatedDevice) { self.device = device }

    @discardableResult
    mutating func perform(_ action: SimulatorAction) -> SimulatorEvent {
        let outcome = Simulator.perform(action, on: device)
        device = outcome.device
        uploaded += outcome.uploadedLogs
        last = outcome
        return outcome.event
    }
}

@Suite struct LockTableTests {
    let singleAppMode = DevicePolicy(SingleAppMode(appIdentifier: Fixture.kiosk.bundleID))

    @Test func singleAppModeLocksASupervisedDeviceSurvivesRestartAndIgnoresHome() {
        var run = Run(Fixture.device())
        run.perform(.applyPolicy(singleAppMode, conflict: []))
        #expect(run.device.lock == .singleAppMode(app: Fixture.kiosk.bundleID))
        #expect(run.device.foregroundApp == Fixture.kiosk.bundleID)

        #expect(run.perform(.home).result == .ignored)
        #expect(run.device.foregroundApp == Fixture.kiosk.bundleID)
        #expect(run.perform(.launchApp(Fixture.notes.bundleID)).result == .refused)

        run.perform(.restart)
        #expect(run.device.lock == .singleAppMode(app: Fixture.kiosk.bundleID))
        #expect(run.device.foregroundApp == Fixture.kiosk.bundleID)

        let unlock = run.perform(.requestUnlock(app: Fixture.kiosk.bundleID))
        #expect(unlock.result == .refused)
        #expect(unlock.rule.contains("removing its payload"))

        run.perform(.applyPolicy(.empty, conflict: []))
        #expect(run.device.lock == nil)
        #expect(run.perform(.home).result == .done)
        #expect(run.device.foregroundApp == nil)
    }

    @Test func singleAppModeDoesNotApplyToAnUnsupervisedDevice() {
        var run = Run(Fixture.device(supervised: false))
        let event = run.perform(.applyPolicy(singleAppMode, conflict: []))
        #expect(run.device.lock == nil)
        #expect(event.message.contains("not supervised"))
    }

    @Test func aCrashingSingleAppModeAppIsRelaunched() {
        var run = Run(Fixture.device())
        run.perform(.applyPolicy(singleAppMode, conflict: []))
        run.perform(.crash(app: Fixture.kiosk.bundleID))
        #expect(run.device.foregroundApp == Fixture.kiosk.bundleID)
        #expect(run.uploaded.map(\.kind) == [.crash])
    }

    @Test func aConflictKeepsThePreviousPolicy() {
        var run = Run(Fixture.device())
        run.perform(.applyPolicy(singleAppMode, conflict: []))
        let event = run.perform(.applyPolicy(nil, conflict: ["com.example.kiosk", "com.example.exam"]))
        #expect(event.result == .refused)
        #expect(run.device.policy == singleAppMode)
        #expect(run.device.lock == .singleAppMode(app: Fixture.kiosk.bundleID))
        #expect(run.device.policyConflict == ["com.example.kiosk", "com.example.exam"])
    }

    func asamRun(supervised: Bool = true, allowlist: [String]? = [Fixture.kiosk.bundleID]) -> Run {
        var run = Run(Fixture.device(supervised: supervised, policy: DevicePolicy(allowlist.map { ASAMAllowlist(appIdentifiers: $0) })))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        return run
    }

    @Test func asamSucceedsOnlySupervisedAllowlistedAndConfirmed() {
        var run = asamRun()
        #expect(run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true)).result == .done)
        #expect(run.device.lock == .autonomous(app: Fixture.kiosk.bundleID))
        #expect(run.perform(.requestUnlock(app: Fixture.kiosk.bundleID)).result == .done)
        #expect(run.device.lock == nil)
    }

    @Test(arguments: [
        (true, [Fixture.kiosk.bundleID], false, "answered No"),
        (false, [Fixture.kiosk.bundleID], true, "not supervised"),
        (true, ["com.example.other"], true, "not in autonomousSingleAppModePermittedAppIDs"),
    ])
    func asamRefusals(supervised: Bool, allowlist: [String], confirm: Bool, reason: String) {
        var run = asamRun(supervised: supervised, allowlist: allowlist)
        let event = run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: confirm))
        #expect(event.result == .refused)
        #expect(event.message.contains(reason))
        #expect(run.device.lock == nil)
    }

    @Test func asamWithoutAnyAllowlistIsRefused() {
        var run = asamRun(allowlist: nil)
        #expect(run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true)).result == .refused)
    }

    @Test func aSecondLockRequestFailsAndTheDeviceStaysLocked() {
        var run = asamRun()
        run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true))
        let second = run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true))
        #expect(second.result == .refused)
        #expect(second.message.contains("stays locked"))
        #expect(run.device.lock == .autonomous(app: Fixture.kiosk.bundleID))
    }

    @Test func restartReleasesAsam() {
        var run = asamRun()
        run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true))
        run.perform(.restart)
        #expect(run.device.lock == nil)
        #expect(run.device.foregroundApp == nil)
    }

    @Test func assessmentNeedsTheEntitlementButNotSupervision() {
        var run = Run(Fixture.device(supervised: false))
        run.perform(.launchApp(Fixture.notes.bundleID))
        let refused = run.perform(.requestLock(app: Fixture.notes.bundleID, mode: .assessment, confirm: true))
        #expect(refused.result == .refused)
        #expect(refused.rule.contains("edu-assessment-mode"))

        run.perform(.launchApp(Fixture.exam.bundleID))
        #expect(run.perform(.requestLock(app: Fixture.exam.bundleID, mode: .assessment, confirm: false)).result == .refused)
        let locked = run.perform(.requestLock(app: Fixture.exam.bundleID, mode: .assessment, confirm: true))
        #expect(locked.result == .done)
        #expect(locked.message.contains("Dictation"))
    }

    @Test func assessmentEndsItselfAfterEightHoursNotBefore() {
        var run = Run(Fixture.device())
        run.perform(.launchApp(Fixture.exam.bundleID))
        run.perform(.requestLock(app: Fixture.exam.bundleID, mode: .assessment, confirm: true))
        run.perform(.advanceClock(minutes: 8 * 60 - 1))
        #expect(run.device.lock != nil)
        let event = run.perform(.advanceClock(minutes: 1))
        #expect(run.device.lock == nil)
        #expect(event.rule.contains("8 hours"))
    }

    @Test func onlyTheLockingAppMayUnlock() {
        var run = Run(Fixture.device())
        run.perform(.launchApp(Fixture.exam.bundleID))
        run.perform(.requestLock(app: Fixture.exam.bundleID, mode: .assessment, confirm: true))
        #expect(run.perform(.requestUnlock(app: Fixture.kiosk.bundleID)).result == .refused)
        #expect(run.device.lock != nil)
    }

    @Test func guidedAccessNeedsItsPasscodeOrARestart() {
        var run = Run(Fixture.device(supervised: false))
        run.perform(.launchApp(Fixture.personal.bundleID))
        #expect(run.perform(.startGuidedAccess(passcode: "12")).result == .refused)
        #expect(run.perform(.startGuidedAccess(passcode: "1234")).result == .done)
        #expect(run.perform(.home).result == .ignored)
        #expect(run.perform(.endGuidedAccess(passcode: "9999")).result == .refused)
        #expect(run.device.lock != nil)
        #expect(run.perform(.endGuidedAccess(passcode: "1234")).result == .done)
        #expect(run.device.lock == nil)

        run.perform(.startGuidedAccess(passcode: "1234"))
        run.perform(.restart)
        #expect(run.device.lock == nil)
    }

    @Test func theConsoleCanClearAGuidedAccessPasscode() {
        var run = Run(Fixture.device())
        run.perform(.launchApp(Fixture.personal.bundleID))
        run.perform(.startGuidedAccess(passcode: "4321"))
        #expect(run.perform(.clearGuidedAccessPasscode).result == .done)
        #expect(run.device.lock == nil)
    }

    @Test func singleAppModeOverridesAnAppsOwnLock() {
        var run = asamRun()
        run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true))
        run.perform(.applyPolicy(DevicePolicy(SingleAppMode(appIdentifier: Fixture.exam.bundleID)), conflict: []))
        #expect(run.device.lock == .singleAppMode(app: Fixture.exam.bundleID))
    }
}

@Suite struct DataLossPreventionTests {
    func run(_ dlp: DataLossPrevention?) -> Run { Run(Fixture.device(policy: DevicePolicy(dlp))) }

    func copyThenPaste(_ run: inout Run, from source: SimulatedApp, to target: SimulatedApp) -> SimulatorEvent {
        run.perform(.launchApp(source.bundleID))
        run.perform(.copy(app: source.bundleID, text: "patient 42"))
        run.perform(.launchApp(target.bundleID))
        return run.perform(.paste(app: target.bundleID))
    }

    @Test func withoutDLPEverythingPastes() {
        var device = run(nil)
        #expect(copyThenPaste(&device, from: Fixture.kiosk, to: Fixture.personal).result == .done)
    }

    @Test func copyOutNoKeepsTextAmongManagedApps() {
        var toPersonal = run(DataLossPrevention(allowCopyPasteOut: false))
        let blocked = copyThenPaste(&toPersonal, from: Fixture.kiosk, to: Fixture.personal)
        #expect(blocked.result == .blocked)
        #expect(blocked.rule == "Copy and paste out: No")

        var toManaged = run(DataLossPrevention(allowCopyPasteOut: false))
        #expect(copyThenPaste(&toManaged, from: Fixture.kiosk, to: Fixture.notes).result == .done)
    }

    @Test func copyIntoNoRefusesUnmanagedSources() {
        var fromPersonal = run(DataLossPrevention(allowCopyPasteInto: false))
        let blocked = copyThenPaste(&fromPersonal, from: Fixture.personal, to: Fixture.kiosk)
        #expect(blocked.result == .blocked)
        #expect(blocked.rule == "Copy and paste into: No")

        var fromManaged = run(DataLossPrevention(allowCopyPasteInto: false))
        #expect(copyThenPaste(&fromManaged, from: Fixture.exam, to: Fixture.kiosk).result == .done)
    }

    @Test func dlpBindsOnlySDKApps() {
        // Exam is managed but not SDK-built: the SDK's copy-into rule does not run inside it.
        var device = run(DataLossPrevention(allowCopyPasteInto: false))
        #expect(copyThenPaste(&device, from: Fixture.personal, to: Fixture.exam).result == .done)
    }

    @Test func thirdPartyKeyboardsAreReplacedWhenDisallowed() {
        var device = run(DataLossPrevention(allowThirdPartyKeyboards: false))
        device.perform(.launchApp(Fixture.kiosk.bundleID))
        let event = device.perform(.showKeyboard(app: Fixture.kiosk.bundleID))
        #expect(event.result == .blocked)
        #expect(event.message.contains("system keyboard replaces"))
        device.perform(.launchApp(Fixture.personal.bundleID))
        #expect(device.perform(.showKeyboard(app: Fixture.personal.bundleID)).message == "The third-party keyboard shows.")
    }

    @Test func pastingWithAnEmptyPasteboardSaysSo() {
        var device = run(nil)
        device.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(device.perform(.paste(app: Fixture.kiosk.bundleID)).result == .ignored)
    }
}

@Suite struct GeofenceAndOfflineTests {
    let office = Geofence.Area(name: "Head office", latitude: 51.5, longitude: -0.12, radiusMeters: 500)

    func sdkAppOpen(areas: [Geofence.Area], authentication: Authentication? = nil) -> Run {
        var run = Run(Fixture.device(policy: DevicePolicy(Geofence(areas: areas), authentication)))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        return run
    }

    @Test func outsideEveryAreaAnSDKAppIsBlocked() {
        var run = sdkAppOpen(areas: [office])
        #expect(run.perform(.setLocation(GeoPoint(latitude: 51.5, longitude: -0.12))).result == .done)
        let outside = run.perform(.setLocation(GeoPoint(latitude: 51.6, longitude: -0.12)))
        #expect(outside.result == .blocked)
        #expect(outside.message.contains("Head office"))
        #expect(outside.message.contains("km away"))
    }

    @Test func aPointOnTheBoundaryIsInside() {
        var run = sdkAppOpen(areas: [office])
        // Exactly the radius away along the meridian (distance = R·Δφ).
        let edge = 51.5 + 500 / GeoPoint.earthRadius * 180 / .pi
        #expect(run.perform(.setLocation(GeoPoint(latitude: edge - 1e-9, longitude: -0.12))).result == .done)
    }

    @Test func areasAcrossTheAntimeridianWork() {
        let fiji = Geofence.Area(name: "Taveuni", latitude: -16.8, longitude: 179.99, radiusMeters: 5_000)
        var run = sdkAppOpen(areas: [fiji])
        #expect(run.perform(.setLocation(GeoPoint(latitude: -16.8, longitude: -179.99))).result == .done)
        #expect(run.perform(.setLocation(GeoPoint(latitude: -16.8, longitude: -179.5))).result == .blocked)
    }

    @Test func locationServicesOffStopsGeofencingLikeAirplaneMode() {
        let outside = GeoPoint(latitude: 51.6, longitude: -0.12)
        var turnedOff = sdkAppOpen(areas: [office])
        #expect(turnedOff.perform(.setLocation(outside)).result == .blocked)
        let off = turnedOff.perform(.setLocation(nil))
        #expect(off.result == .done)
        #expect(off.rule == "With location services off geofencing stops")
        #expect(off.message.contains("location services are off"))
        #expect(turnedOff.device.screen == .app(Fixture.kiosk.bundleID))

        var airplane = sdkAppOpen(areas: [office])
        airplane.perform(.setLocation(outside))
        let offline = airplane.perform(.setNetwork(.offline))
        #expect(offline.result == .done)
        #expect(offline.rule == "In airplane mode geofencing stops")
        #expect(offline.message.contains("location services are off"))
        #expect(airplane.device.screen == turnedOff.device.screen)
    }

    @Test func anSDKAppOpensWithLocationServicesOffAndTheTimelineSaysWhy() {
        var run = Run(Fixture.device(policy: DevicePolicy(Geofence(areas: [office]))))
        let open = run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(open.result == .done)
        #expect(open.message.contains("Geofencing stops while location services are off"))
    }

    @Test func turningLocationServicesBackOnEnforcesTheGeofenceAgain() {
        var run = sdkAppOpen(areas: [office])
        #expect(run.perform(.setLocation(nil)).result == .done)
        #expect(run.perform(.setLocation(GeoPoint(latitude: 51.6, longitude: -0.12))).result == .blocked)
    }

    @Test func nonSDKAppsIgnoreTheGeofence() {
        var run = Run(Fixture.device(policy: DevicePolicy(Geofence(areas: [office]))))
        #expect(run.perform(.launchApp(Fixture.personal.bundleID)).result == .done)
    }

    @Test func offlineLongerThanAllowedShowsTheBlocker() {
        let auth = Authentication(type: .passcode, offlineAccessEnabled: true, maximumOfflineMinutes: 60)
        var run = sdkAppOpen(areas: [], authentication: auth)
        #expect(run.device.screen == .signIn(Fixture.kiosk.bundleID))
        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        run.perform(.setNetwork(.offline))
        #expect(run.perform(.advanceClock(minutes: 60)).result == .done)
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        run.perform(.advanceClock(minutes: 1))
        guard case .blocked(_, let reason) = run.device.screen else { Issue.record("expected a blocker"); return }
        #expect(reason.contains("Offline for 61 minutes"))
    }

    @Test func singleSignOnSignsInEverySDKApp() {
        var run = sdkAppOpen(areas: [], authentication: Authentication(type: .usernamePassword, singleSignOn: true))
        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        run.perform(.launchApp(Fixture.notes.bundleID))
        #expect(run.device.screen == .app(Fixture.notes.bundleID))
    }

    @Test func singleSignOnKeepsTheSessionAcrossHomeAndReopening() {
        var run = sdkAppOpen(areas: [], authentication: Authentication(type: .usernamePassword, singleSignOn: true))
        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        run.perform(.home)
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
    }

    /// Seed 004, tables 3-2 and 3-3: without single sign-on the app asks on every access.
    @Test(arguments: [AuthenticationType.usernamePassword, .passcode])
    func withoutSingleSignOnEveryAccessAsksAgain(_ type: AuthenticationType) {
        var run = sdkAppOpen(areas: [], authentication: Authentication(type: type, singleSignOn: false))
        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
        let home = run.perform(.home)
        #expect(home.rule == "Without single sign-on an app signs in on every access")
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .signIn(Fixture.kiosk.bundleID), "reopened after Home")

        run.perform(.signIn(app: Fixture.kiosk.bundleID))
        run.perform(.launchApp(Fixture.notes.bundleID))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .signIn(Fixture.kiosk.bundleID), "reopened after another app")
    }

    @Test func disabledAuthenticationNeverAsks() {
        var run = sdkAppOpen(areas: [], authentication: Authentication(type: .disabled))
        run.perform(.home)
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.device.screen == .app(Fixture.kiosk.bundleID))
    }
}

@Suite struct SimulatedLoggingTests {
    func run(_ logging: Logging?, network: SimulatedNetwork = .wifi) -> Run {
        var run = Run(Fixture.device(policy: DevicePolicy(logging)))
        run.perform(.setNetwork(network))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        return run
    }

    @Test func onlyTheConfiguredLevelAndMoreSevereAreKept() {
        var device = run(Logging(level: .warning))
        for level in LogLevel.allCases {
            device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: level, message: "m", count: 1))
        }
        #expect(device.uploaded.map(\.level) == [.error, .warning])
    }

    @Test func disabledOrMissingLoggingKeepsNothing() {
        var off = run(Logging(enabled: false, level: .debug))
        #expect(off.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .error, message: "m", count: 1)).result == .ignored)
        var none = run(nil)
        none.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .error, message: "m", count: 1))
        #expect(none.uploaded.isEmpty && none.device.pendingLogs.isEmpty)
    }

    @Test func wifiOnlyWaitsOnCellularAndUploadsOnWifi() {
        var device = run(Logging(level: .debug, wifiOnly: true), network: .cellular)
        let event = device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .information, message: "m", count: 3))
        #expect(event.message.contains("waiting for Wi-Fi"))
        #expect(device.device.pendingLogs.count == 3)
        device.perform(.setNetwork(.wifi))
        #expect(device.uploaded.count == 3)
        #expect(device.device.pendingLogs.isEmpty)
    }

    @Test func aBurstIsCappedAndNumbered() {
        var device = run(Logging(level: .debug))
        device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .debug, message: "tick", count: 5_000))
        #expect(device.uploaded.count == SimulatorAction.maximumBurst)
        #expect(device.uploaded.last?.message == "tick (1000 of 1000)")
    }

    @Test func aCrashLogUploadsOnTheNextLaunch() {
        var device = run(Logging(level: .error))
        device.perform(.crash(app: Fixture.kiosk.bundleID))
        #expect(device.uploaded.isEmpty)
        #expect(device.device.foregroundApp == nil)
        device.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(device.uploaded.map(\.kind) == [.crash])
    }

    @Test func aCrashLogNamesItsCrashAndTheAppsVersion() throws {
        var device = run(Logging(level: .error))
        device.perform(.setAppVersion(app: Fixture.kiosk.bundleID, version: "2.4.0"))
        device.perform(.launchApp(Fixture.kiosk.bundleID))
        device.perform(.crash(app: Fixture.kiosk.bundleID))
        device.perform(.launchApp(Fixture.kiosk.bundleID))
        let crash = try #require(device.uploaded.first { $0.kind == .crash })
        #expect(crash.appVersion == "2.4.0")
        let line = LogLine(app: crash.app, level: crash.level, kind: crash.kind, loggedAt: crash.loggedAt, message: crash.message)
        #expect(line.signature == "Exception Type: EXC_CRASH (SIGABRT)", "a crash's first line, not a generic name")
        #expect(line.appVersion == "2.4.0", "read from the report's Version header when the upload leaves it out")
        device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .error, message: "Printer offline", count: 1))
        #expect(device.uploaded.last?.appVersion == "2.4.0", "app lines carry the version too")
    }

    @Test func captureKeepsEveryLevelForItsDuration() {
        var device = run(Logging(level: .error))
        device.perform(.requestLogs(captureMinutes: 10))
        device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .debug, message: "m", count: 1))
        #expect(device.uploaded.count == 1)
        device.perform(.advanceClock(minutes: 10))
        device.perform(.emitLog(app: Fixture.kiosk.bundleID, level: .debug, message: "m", count: 1))
        #expect(device.uploaded.count == 1)
    }
}

@Suite struct ManagedConfigurationAndFeedbackTests {
    @Test func theAppUsesDefaultsForMissingOrInvalidKeysAndCountsThem() {
        let configuration = ManagedAppConfiguration(appIdentifier: Fixture.kiosk.bundleID, keys: [
            ConfigKey(name: "serverURL", type: .string, value: .string("https://example.com")),
            ConfigKey(name: "retries", type: .integer, maximum: 5, value: .integer(9)),
            ConfigKey(name: "welcome", type: .string),
        ])
        let received = ReceivedConfiguration(configuration)
        #expect(received.entries.map(\.usedDefault) == [false, true, true])
        #expect(received.entries[1].value == "0")

        var run = Run(Fixture.device(policy: DevicePolicy(configuration)))
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        run.perform(.home)
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        run.perform(.fetchFeedback(apps: [Fixture.kiosk.bundleID], delete: true))
        #expect(run.last?.feedbackReport?[Fixture.kiosk.bundleID] == ["configurationReads": 2, "keysApplied": 2, "keysDefaulted": 4])
        run.perform(.fetchFeedback(apps: [Fixture.kiosk.bundleID], delete: false))
        #expect(run.last?.feedbackReport?[Fixture.kiosk.bundleID] == [:])
    }
}

@Suite struct SimulatorFailureReasonTests {
    @Test func appsActOnlyWhenInstalledAndOnScreen() {
        var run = Run(Fixture.device(policy: DevicePolicy(ASAMAllowlist(appIdentifiers: [Fixture.kiosk.bundleID]))))
        let missing = run.perform(.launchApp("com.example.absent"))
        #expect(missing.result == .refused)
        #expect(missing.message.contains("not installed"))
        let offScreen = run.perform(.requestLock(app: Fixture.kiosk.bundleID, mode: .autonomous, confirm: true))
        #expect(offScreen.result == .refused)
        #expect(offScreen.message == "Open Kiosk first.")
        #expect(run.perform(.copy(app: Fixture.kiosk.bundleID, text: "x")).result == .refused)
        #expect(run.device.lock == nil && run.device.pasteboard == nil)
    }

    @Test func unlockingAnUnlockedDeviceAndGuidedAccessWithoutAnAppAreRefused() {
        var run = Run(Fixture.device())
        #expect(run.perform(.startGuidedAccess(passcode: "1234")).message == "Open an app first.")
        run.perform(.launchApp(Fixture.kiosk.bundleID))
        #expect(run.perform(.requestUnlock(app: Fixture.kiosk.bundleID)).message == "The device is not locked.")
        #expect(run.perform(.endGuidedAccess(passcode: "1234")).result == .refused)
    }

    @Test func guidedAccessIsRefusedWhileAnotherLockHolds() {
        var run = Run(Fixture.device())
        run.perform(.applyPolicy(DevicePolicy(SingleAppMode(appIdentifier: Fixture.kiosk.bundleID)), conflict: []))
        let refused = run.perform(.startGuidedAccess(passcode: "1234"))
        #expect(refused.result == .refused)
        #expect(run.device.lock == .singleAppMode(app: Fixture.kiosk.bundleID))
        #expect(run.perform(.requestUnlock(app: Fixture.kiosk.bundleID)).result == .refused)
    }

    @Test func onlySDKAppsSendLogs() {
        var run = Run(Fixture.device(policy: DevicePolicy(Logging(level: .debug))))
        run.perform(.launchApp(Fixture.personal.bundleID))
        let event = run.perform(.emitLog(app: Fixture.personal.bundleID, level: .error, message: "m", count: 1))
        #expect(event.result == .ignored)
        #expect(run.uploaded.isEmpty)
    }

    @Test func singleAppModeWaitsForItsAppToBeInstalled() {
        var device = Fixture.device()
        device.apps.removeAll { $0.bundleID == Fixture.kiosk.bundleID }
        var run = Run(device)
        let event = run.perform(.applyPolicy(DevicePolicy(SingleAppMode(appIdentifier: Fixture.kiosk.bundleID)), conflict: []))
        #expect(run.device.lock == nil)
        #expect(event.message.contains("waits for com.example.kiosk"))
    }

    @Test func theStateSurvivesEncodingAsTheServerStoresIt() throws {
        var run = Run(Fixture.device(policy: DevicePolicy(DataLossPrevention(allowCopyPasteOut: false), Logging(level: .debug))))
        run.perform(.launchApp(Fixture.exam.bundleID))
        run.perform(.requestLock(app: Fixture.exam.bundleID, mode: .assessment, confirm: true))
        run.perform(.copy(app: Fixture.exam.bundleID, text: "answer"))
        run.perform(.setLocation(GeoPoint(latitude: 1, longitude: 2)))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let decoded = try decoder.decode(SimulatedDevice.self, from: encoder.encode(run.device))
        #expect(decoded == run.device)
    }
}
