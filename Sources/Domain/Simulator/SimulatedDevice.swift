import Foundation

/// An app on a simulated device, with the traits the rules look at.
public struct SimulatedApp: Codable, Equatable, Sendable {
    public var bundleID: String
    public var name: String
    public var isManaged: Bool
    public var isSDKBuilt: Bool
    public var hasAssessmentEntitlement: Bool
    /// The organisation's managed browser or mail app, where DLP sends links; nil for others.
    public var role: AppRole?

    public init(bundleID: String, name: String, isManaged: Bool = true, isSDKBuilt: Bool = false, hasAssessmentEntitlement: Bool = false,
                role: AppRole? = nil) {
        self.bundleID = bundleID
        self.name = name
        self.isManaged = isManaged
        self.isSDKBuilt = isSDKBuilt
        self.hasAssessmentEntitlement = hasAssessmentEntitlement
        self.role = role
    }

    /// "Managed or SDK" is the line DLP draws: data may move between such apps only.
    public var isManagedOrSDK: Bool { isManaged || isSDKBuilt }
}

/// The four ways a device is held in one app: by policy (Single App Mode), by the app's own
/// request (ASAM), by an assessment (AAC) or by the user (Guided Access).
public enum DeviceLock: Codable, Equatable, Sendable {
    /// From the Single App Mode payload; released only by removing it.
    case singleAppMode(app: String)
    /// The app asked (ASAM); released by the app or a restart.
    case autonomous(app: String)
    /// An assessment (AAC); released by the app, a restart, or after 8 hours.
    case assessment(app: String, since: Date)
    /// Triple-click on the device; released with the passcode or a restart.
    case guidedAccess(app: String, passcode: String)

    public var app: String {
        switch self {
        case .singleAppMode(let app), .autonomous(let app), .assessment(let app, _), .guidedAccess(let app, _): app
        }
    }

    /// A stable name for the mode, as the device list filters by it.
    public var code: String {
        switch self {
        case .singleAppMode: "singleAppMode"
        case .autonomous: "autonomous"
        case .assessment: "assessment"
        case .guidedAccess: "guidedAccess"
        }
    }

    public var modeName: String {
        switch self {
        case .singleAppMode: "Single App Mode"
        case .autonomous: "Autonomous Single App Mode"
        case .assessment: "Assessment mode (AAC)"
        case .guidedAccess: "Guided Access"
        }
    }
}

public enum SimulatedNetwork: String, CaseIterable, Codable, Sendable {
    case wifi
    case cellular
    /// Airplane mode: no network and no location fixes.
    case offline

    public var displayName: String {
        switch self {
        case .wifi: "Wi-Fi"
        case .cellular: "Cellular"
        case .offline: "Offline (airplane mode)"
        }
    }
}

/// What the pasteboard holds and where it came from: DLP decides by the source.
public struct Pasteboard: Codable, Equatable, Sendable {
    public var text: String
    public var sourceApp: String
    /// Copied out of an SDK app whose policy forbids copy-and-paste out: pastes only into
    /// managed or SDK apps.
    public var restrictedToManaged: Bool
    /// Whether the source was a managed or SDK app, for the copy-into rule.
    public var fromManagedApp: Bool
}

/// One log message on the device, waiting to be uploaded or just uploaded.
public struct SimulatedLog: Codable, Equatable, Sendable {
    public enum Kind: String, CaseIterable, Codable, Sendable { case application, crash }

    public var app: String
    public var kind: Kind
    public var level: LogLevel
    public var message: String
    public var loggedAt: Date
    /// The app's version when it logged, as the SDK sends it; nil in states saved before the
    /// simulator sent versions.
    public var appVersion: String? = nil
}

/// Everything the simulator remembers about one device. Stored on the server, so a reload,
/// a second browser or a console restart shows the same device.
public struct SimulatedDevice: Codable, Equatable, Sendable {
    public var isSupervised: Bool
    public var apps: [SimulatedApp]
    /// The policy in force. A conflicting policy from the server does not replace it.
    public var policy: DevicePolicy
    /// The apps of a Single App Mode conflict the last check-in reported, if any.
    public var policyConflict: [String]
    public var foregroundApp: String?
    public var lock: DeviceLock?
    public var network: SimulatedNetwork
    public var location: GeoPoint?
    /// The simulated clock: "advance clock" moves it, so the 8-hour AAC limit and offline
    /// time can be shown without waiting.
    public var clock: Date
    /// When the device last lost its network; nil while online.
    public var offlineSince: Date?
    public var pasteboard: Pasteboard?
    /// Apps signed in through the SDK's authentication screen.
    public var signedInApps: [String]
    /// Whether the user picked a third-party keyboard (DLP may replace it with the system one).
    public var prefersThirdPartyKeyboard: Bool
    /// Kept messages not yet uploaded (no network, or Wi-Fi only on cellular).
    public var pendingLogs: [SimulatedLog]
    /// Apps that crashed; each crash log uploads when the app next launches.
    public var crashedApps: [String: Date]
    /// Until then every level is kept, because the console asked the device to capture logs.
    public var captureUntil: Date?
    /// Per app, the counters the app writes under `com.apple.feedback.managed`.
    public var feedback: [String: [String: Int]]
    /// The iOS version, from the console's device record until the simulated device updates.
    /// Optional only because states stored before compliance existed lack it.
    public var osVersion: String?
    /// Versions the apps were updated to; an app not listed runs `defaultAppVersion`.
    public var appVersions: [String: String]?
    /// Since when the device has been jailbroken; nil while it is not.
    public var compromisedSince: Date?
    /// When an enterprise wipe removed the managed apps; nil if none has.
    public var wipedAt: Date?
    /// The buttons, switches and screen Single App Mode options act on; nil in states stored
    /// before they were simulated (read through `hardwareState`).
    public var hardware: HardwareState?

    public init(isSupervised: Bool, apps: [SimulatedApp], clock: Date, policy: DevicePolicy = .empty) {
        self.isSupervised = isSupervised
        self.apps = apps
        self.policy = policy
        policyConflict = []
        network = .wifi
        self.clock = clock
        signedInApps = []
        prefersThirdPartyKeyboard = true
        pendingLogs = []
        crashedApps = [:]
        feedback = [:]
    }

    public func app(_ bundleID: String) -> SimulatedApp? { apps.first { $0.bundleID == bundleID } }

    /// The version an app reports: the one it was updated to, else the version a newly
    /// installed app has in the simulator.
    public func version(of bundleID: String) -> String { appVersions?[bundleID] ?? Self.defaultAppVersion }
    public static let defaultAppVersion = "1.0"

    public var isCompromised: Bool { compromisedSince != nil }

    /// At most this many messages wait on the device; older ones are dropped first, as a real
    /// SDK's bounded log buffer would.
    public static let pendingLogLimit = 5_000
}
