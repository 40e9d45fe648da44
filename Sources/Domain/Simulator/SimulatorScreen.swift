import Foundation

/// What the device shows. Derived from the state every time, never stored, so moving the
/// clock, the location or the network changes it at once.
public enum SimulatorScreen: Equatable, Sendable {
    case home
    case app(String)
    /// An SDK app's sign-in screen, in the branding colours.
    case signIn(String)
    /// An SDK app's blocker, with the reason the SDK gives.
    case blocked(String, reason: String)
}

extension SimulatedDevice {
    public var screen: SimulatorScreen {
        guard let bundleID = foregroundApp else { return .home }
        guard let app = app(bundleID), app.isSDKBuilt else { return .app(bundleID) }
        if let reason = complianceReason { return .blocked(bundleID, reason: reason) }
        if let reason = geofenceBlock() { return .blocked(bundleID, reason: reason) }
        if let reason = offlineBlock() { return .blocked(bundleID, reason: reason) }
        if let auth = policy[Authentication.self], auth.type != .disabled, !signedInApps.contains(bundleID) {
            return .signIn(bundleID)
        }
        return .app(bundleID)
    }

    /// Geofencing needs location services; while they are off it stops, so nothing is enforced.
    func geofenceBlock() -> String? {
        if case .outside(_, let reason) = policy.geofenceVerdict(on: conditions) { reason } else { nil }
    }

    /// Why a geofence that applies is not enforced now: location services are off, in airplane
    /// mode or turned off, and the two behave the same: the fence stops, nothing is enforced. Nil when no
    /// geofence applies or it is enforced.
    public var geofencingStoppedReason: String? {
        if case .stopped(let reason) = policy.geofenceVerdict(on: conditions) { reason } else { nil }
    }

    /// Offline past the allowed time, the SDK shows its blocker and locks the app, whatever the
    /// authentication type: offline access is a setting of its own.
    func offlineBlock() -> String? {
        if case .blocked(let reason) = policy.offlineVerdict(on: conditions) { reason } else { nil }
    }

    /// The features an assessment turns off while its app holds the lock. Third-party
    /// keyboards are not among them: the app must refuse keyboard extensions itself.
    public static let assessmentRestrictions = [
        "Auto-correction", "Spell check", "Predictive keyboard", "Dictionary lookup", "Keyboard shortcuts", "Sharing",
        "Universal clipboard", "Dictation", "Siri", "Background apps", "Classroom observation",
    ]

    /// What is turned off right now: the assessment's list while its app holds the lock (only
    /// an app's own assessment request sets that lock), nothing once it unlocks.
    public var turnedOff: [String] {
        if case .assessment? = lock { return Self.assessmentRestrictions }
        return []
    }

    /// Messages can upload on Wi-Fi, or on cellular unless logging says Wi-Fi only.
    public var canUploadLogs: Bool {
        switch network {
        case .wifi: true
        case .cellular: !(policy[Logging.self]?.wifiOnly ?? false)
        case .offline: false
        }
    }
}
