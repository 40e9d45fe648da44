import Foundation

/// Which lock an app asks for: `UIAccessibility.requestGuidedAccessSession` (ASAM) or an
/// assessment session (AAC).
public enum LockRequestMode: String, CaseIterable, Codable, Sendable {
    case autonomous
    case assessment
}

/// Everything a person (or a script, through the API) can do to a simulated device, and what
/// the server does to it.
public enum SimulatorAction: Equatable, Sendable {
    case launchApp(String)
    case home
    case requestLock(app: String, mode: LockRequestMode, confirm: Bool)
    case requestUnlock(app: String)
    /// Triple-click, then set a passcode.
    case startGuidedAccess(passcode: String)
    case endGuidedAccess(passcode: String)
    case restart
    case advanceClock(minutes: Int)
    /// nil turns location services off.
    case setLocation(GeoPoint?)
    case setNetwork(SimulatedNetwork)
    case setThirdPartyKeyboard(Bool)
    case copy(app: String, text: String)
    case paste(app: String)
    case showKeyboard(app: String)
    case signIn(app: String)
    case emitLog(app: String, level: LogLevel, message: String, count: Int)
    case crash(app: String)
    /// The device updates iOS, or an app, to this version.
    case setOSVersion(String)
    case setAppVersion(app: String, version: String)
    case setJailbroken(Bool)
    /// The app's code sends the status beacon now.
    case sendBeacon(app: String)
    /// The app opens a connection to `url`; the server presents `certificate`.
    case connect(app: String, url: String, certificate: ServerCertificate)
    /// The app starts an email in the mail app.
    case composeEmail(app: String)
    /// The user taps a web link in the app.
    case openLink(app: String, url: String)
    /// The user taps a `mailto:` link in the app.
    case openMailto(app: String, address: String)
    /// The user taps the screen, turns the device, presses a button or leaves it idle.
    case useHardware(HardwareControl)
    /// The user turns an accessibility feature on or off (under Single App Mode, through the
    /// triple-click shortcut, only for the features the payload lets the user toggle).
    case setAccessibility(AccessibilityFeature, on: Bool)

    // From the server, through the command queue or a check-in.

    /// The effective policy after an assignment change; nil when it is a conflict, with the
    /// apps in conflict.
    case applyPolicy(DevicePolicy?, conflict: [String])
    case fetchFeedback(apps: [String], delete: Bool)
    /// Upload what is kept now, or keep every level for the next `captureMinutes`.
    case requestLogs(captureMinutes: Int?)
    case clearGuidedAccessPasscode

    /// The largest burst one action may emit, so one request cannot flood the log store.
    public static let maximumBurst = 1_000
}

/// The certificate a simulated server presents to an app: one of the pinned certificates that
/// reach the device (by position, from 0), or an inspecting proxy's — valid, trusted by the
/// device, but with a key nobody pinned.
public enum ServerCertificate: Equatable, Sendable {
    case pinned(Int)
    case interceptor
}

/// One line of the simulator's timeline: what was done, the rule that decided it, the result.
public struct SimulatorEvent: Codable, Equatable, Sendable {
    public enum Result: String, CaseIterable, Codable, Sendable {
        case done
        case refused
        case blocked
        case ignored
    }

    public var at: Date
    public var action: String
    public var rule: String
    public var result: Result
    public var message: String

    public init(at: Date, action: String, rule: String, result: Result, message: String) {
        self.at = at
        self.action = action
        self.rule = rule
        self.result = result
        self.message = message
    }
}

/// What an action did: the device afterwards, its timeline event, and what left the device.
public struct SimulatorOutcome: Equatable, Sendable {
    public var device: SimulatedDevice
    public var event: SimulatorEvent
    /// Logs uploaded to the console by this action (kept messages, crash logs).
    public var uploadedLogs: [SimulatedLog] = []
    /// The feedback a `fetchFeedback` returned, per app.
    public var feedbackReport: [String: [String: Int]]?
    /// The SDK app that sent its status beacon in this action (on unlock, or asked to).
    public var beaconApp: String?
}
