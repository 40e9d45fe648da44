import Foundation

/// The device's rules as a pure state machine: an action and a device in, the device
/// afterwards and one timeline event out. No clock but the device's own, no I/O.
public enum Simulator {
    public static func perform(_ action: SimulatorAction, on device: SimulatedDevice) -> SimulatorOutcome {
        var step = Step(device: device)
        let complianceBefore = device.complianceState
        let sdkApps = device.apps.filter(\.isSDKBuilt).map(\.bundleID)
        switch action {
        case .launchApp(let app): step.launch(app)
        case .home: step.home()
        case .requestLock(let app, let mode, let confirm): step.requestLock(app: app, mode: mode, confirm: confirm)
        case .requestUnlock(let app): step.requestUnlock(app: app)
        case .startGuidedAccess(let passcode): step.startGuidedAccess(passcode: passcode)
        case .endGuidedAccess(let passcode): step.endGuidedAccess(passcode: passcode)
        case .clearGuidedAccessPasscode: step.clearGuidedAccessPasscode()
        case .restart: step.restart()
        case .advanceClock(let minutes): step.advanceClock(minutes: minutes)
        case .setLocation(let point): step.setLocation(point)
        case .setNetwork(let network): step.setNetwork(network)
        case .setThirdPartyKeyboard(let prefers): step.setThirdPartyKeyboard(prefers)
        case .copy(let app, let text): step.copy(app: app, text: text)
        case .paste(let app): step.paste(app: app)
        case .showKeyboard(let app): step.showKeyboard(app: app)
        case .signIn(let app): step.signIn(app: app)
        case .emitLog(let app, let level, let message, let count): step.emitLog(app: app, level: level, message: message, count: count)
        case .crash(let app): step.crash(app: app)
        case .applyPolicy(let policy, let conflict): step.apply(policy, conflict: conflict)
        case .fetchFeedback(let apps, let delete): step.fetchFeedback(apps: apps, delete: delete)
        case .requestLogs(let minutes): step.requestLogs(captureMinutes: minutes)
        case .setOSVersion(let version): step.setOSVersion(version)
        case .setAppVersion(let app, let version): step.setAppVersion(app: app, version: version)
        case .setJailbroken(let jailbroken): step.setJailbroken(jailbroken)
        case .sendBeacon(let app): step.sendBeacon(app: app)
        case .connect(let app, let url, let certificate): step.connect(app: app, url: url, certificate: certificate)
        case .composeEmail(let app): step.composeEmail(app: app)
        case .openLink(let app, let url): step.openLink(app: app, url: url)
        case .openMailto(let app, let address): step.openMailto(app: app, address: address)
        case .useHardware(let control): step.use(control)
        case .setAccessibility(let feature, let on): step.setAccessibility(feature, on: on)
        }
        step.enforceWipe()
        if step.device.complianceState != complianceBefore, step.beaconApp == nil {
            // The SDK reports a change of compliance at once, from the app that found it.
            step.beaconApp = step.device.foregroundApp.flatMap { step.device.app($0)?.isSDKBuilt == true ? $0 : nil } ?? sdkApps.first
        }
        step.uploadLogsIfPossible()
        return step.outcome
    }
}

/// One action in progress. The rule functions live in extensions by topic (locking, data,
/// logs); each ends by recording exactly one event.
struct Step {
    var device: SimulatedDevice
    var event: SimulatorEvent?
    var uploaded: [SimulatedLog] = []
    var feedbackReport: [String: [String: Int]]?
    var beaconApp: String?

    var outcome: SimulatorOutcome {
        SimulatorOutcome(device: device, event: event ?? SimulatorEvent(at: device.clock, action: "Nothing", rule: "", result: .ignored, message: ""),
                         uploadedLogs: uploaded, feedbackReport: feedbackReport, beaconApp: beaconApp)
    }

    mutating func record(_ action: String, rule: String, _ result: SimulatorEvent.Result, _ message: String) {
        event = SimulatorEvent(at: device.clock, action: action, rule: rule, result: result, message: message)
    }

    func name(_ bundleID: String) -> String { device.app(bundleID)?.name ?? bundleID }

    /// The app, when it is installed; otherwise records the refusal.
    mutating func installedApp(_ bundleID: String, for action: String) -> SimulatedApp? {
        if let app = device.app(bundleID) { return app }
        record(action, rule: "Only installed apps can run", .refused, "\(bundleID) is not installed on this device.")
        return nil
    }

    /// The app, when it is the one on screen; copy, paste, lock requests and logs happen there.
    mutating func foregroundApp(_ bundleID: String, for action: String) -> SimulatedApp? {
        guard let app = installedApp(bundleID, for: action) else { return nil }
        guard device.foregroundApp == bundleID else {
            record(action, rule: "An app acts only while it is on screen", .refused, "Open \(app.name) first.")
            return nil
        }
        return app
    }

    // MARK: apps and screen

    mutating func launch(_ bundleID: String) {
        let action = "Open \(name(bundleID))"
        guard let app = installedApp(bundleID, for: action) else { return }
        if let lock = device.lock, lock.app != bundleID {
            record(action, rule: "\(lock.modeName) keeps the device in one app", .refused,
                   "The device is locked to \(name(lock.app)); other apps cannot open.")
            return
        }
        if let previous = device.foregroundApp, previous != bundleID { endOwnSession(of: previous) }
        device.foregroundApp = bundleID
        let crashNote = uploadCrashLog(of: app)
        countConfigurationRead(by: app)
        let (result, message) = describeScreen()
        // A blocker names the rule behind it: compliance or compromised protection decided.
        let rule = app.isSDKBuilt && !device.enforcement.isCompliant ? "SDK apps are blocked while the device is out of compliance"
            : "Apps open from the home screen"
        record(action, rule: rule, result, message + crashNote + unmanagedConfigurationNote(for: app))
        if app.isSDKBuilt, case .app = device.screen { beaconApp = bundleID }
    }

    mutating func home() {
        if let lock = device.lock {
            record("Home", rule: "\(lock.modeName) ignores the Home button", .ignored,
                   "Nothing happens: the device stays in \(name(lock.app)).")
            return
        }
        let left = device.foregroundApp
        device.foregroundApp = nil
        let ended = left.map { endOwnSession(of: $0) } ?? false
        record("Home", rule: ended ? "Without single sign-on an app signs in on every access" : "Home returns to the home screen", .done,
               "Back on the home screen." + (ended ? " \(name(left ?? "")) ended its session: opening it again asks to sign in." : ""))
    }

    /// Without single sign-on the session is the app's own and is not kept: Username and
    /// Password asks "on every access attempt", Passcode for the app's passcode each time (seed
    /// 004, tables 3-2 and 3-3). Leaving the app ends it; answers whether there was one to end.
    @discardableResult
    mutating func endOwnSession(of bundleID: String) -> Bool {
        guard let auth = device.policy[Authentication.self], auth.type != .disabled, !auth.singleSignOn,
              device.signedInApps.contains(bundleID) else { return false }
        device.signedInApps.removeAll { $0 == bundleID }
        return true
    }

    mutating func signIn(app bundleID: String) {
        let action = "Sign in to \(name(bundleID))"
        guard foregroundApp(bundleID, for: action) != nil else { return }
        guard case .signIn = device.screen else {
            record(action, rule: "Sign-in shows only when the SDK asks for it", .ignored, "\(name(bundleID)) is not asking for a sign-in.")
            return
        }
        let auth = device.policy[Authentication.self]
        if auth?.singleSignOn == true {
            let sdkApps = device.apps.filter(\.isSDKBuilt).map(\.bundleID)
            device.signedInApps = Array(Set(device.signedInApps).union(sdkApps)).sorted()
            record(action, rule: "Single sign-on shares the session across the organisation's apps", .done,
                   "Signed in with \(auth?.type.displayName.lowercased() ?? "credentials"); every SDK app on the device shares the session.")
        } else {
            device.signedInApps = Array(Set(device.signedInApps).union([bundleID])).sorted()
            record(action, rule: "Each SDK app signs in by itself", .done, "Signed in to \(name(bundleID)).")
        }
        beaconApp = bundleID
    }

    /// The result and words for what the foreground app shows now; an SDK app that opens
    /// although a geofence applies says why.
    func describeScreen() -> (SimulatorEvent.Result, String) {
        let geofenceNote = device.geofencingStoppedReason.map { " " + $0 } ?? ""
        return switch device.screen {
        case .home: (.done, "The home screen shows.")
        case .app(let app): (.done, "\(name(app)) is open." + (device.app(app)?.isSDKBuilt == true ? geofenceNote : ""))
        case .signIn(let app): (.done, "\(name(app)) shows its sign-in screen." + geofenceNote)
        case .blocked(let app, let reason): (.blocked, "\(name(app)) is blocked. \(reason)")
        }
    }

    // MARK: clock, location, network

    mutating func advanceClock(minutes: Int) {
        let minutes = max(1, min(minutes, 7 * 24 * 60))
        device.clock = device.clock.addingTimeInterval(TimeInterval(minutes * 60))
        var message = "The clock moves on \(minutes) minutes."
        var rule = "Simulated time"
        if case .assessment(let app, let since)? = device.lock, device.clock.timeIntervalSince(since) >= Self.assessmentLimit {
            device.lock = nil
            rule = "An assessment ends itself after 8 hours"
            message += " \(name(app)) has been in assessment mode for 8 hours, so the device unlocks."
        }
        if case .blocked(_, let reason) = device.screen { message += " " + reason }
        record("Advance clock", rule: rule, .done, message)
    }

    static let assessmentLimit: TimeInterval = 8 * 60 * 60

    mutating func setLocation(_ point: GeoPoint?) {
        device.location = point
        let action = point.map { String(format: "Set location %.4f, %.4f", $0.latitude, $0.longitude) } ?? "Turn location services off"
        let rule = if device.policy[Geofence.self]?.areas.isEmpty ?? true {
            "No geofence applies"
        } else if point == nil {
            "With location services off geofencing stops"
        } else if device.network == .offline {
            "In airplane mode geofencing stops"
        } else {
            "SDK apps open only inside a geofence area"
        }
        let (result, message) = describeScreen()
        record(action, rule: rule, result, message)
    }

    mutating func setNetwork(_ network: SimulatedNetwork) {
        let wasOnline = device.network != .offline
        // Read before the network changes: the blocker is what ends the session.
        let offlineBlockerShown = device.offlineBlock() != nil
        device.network = network
        if network == .offline, wasOnline { device.offlineSince = device.clock }
        if network != .offline { device.offlineSince = nil }
        var rule = "Network"
        var note = ""
        if network == .offline, !(device.policy[Geofence.self]?.areas.isEmpty ?? true) { rule = "In airplane mode geofencing stops" }
        if network != .offline, !wasOnline, offlineBlockerShown {
            // The SDK locked its apps at the blocker; with single sign-on the shared session
            // goes too, so no SDK app keeps a sign-in.
            device.signedInApps = []
            if device.policy[Authentication.self]?.type == .disabled {
                rule = "After the offline blocker the app reopens: authentication is Disabled"
                note = "Back online, SDK apps open again without a sign-in. "
            } else {
                rule = "After the offline blocker the user signs in again"
                note = "Back online, SDK apps ask for a sign-in again. "
            }
        }
        let (result, message) = describeScreen()
        record("Network: \(network.displayName)", rule: rule, result, note + message)
    }
}
