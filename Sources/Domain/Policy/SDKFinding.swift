/// One thing the SDK in a device's apps will do under a policy, judged from what the device
/// is known to be — or that it cannot be judged, because the device never reported what the
/// rule compares. The impact preview lists the findings a change adds or ends.
public enum SDKFinding: Hashable, Sendable {
    /// A compliance rule the device meets: its action (block or wipe) happens.
    case ruleBroken(ComplianceRule)
    case ruleNotKnown(ComplianceRule)
    /// Compromised protection on a jailbroken device.
    case jailbroken(ComplianceRule.Action)
    case jailbreakNotKnown
    /// Last reported outside every geofence area: SDK apps show the blocker.
    case outsideGeofence(nearestArea: String)
    /// Location services off: the geofence is not enforced.
    case geofenceStopped
    case locationNotKnown
    /// Offline, with offline access off or past its time: SDK apps show the blocker.
    case offlineBlocked
    case networkNotKnown

    /// What happens, in a word a client can test: block, wipe, not-enforced or not-known.
    public var effect: String {
        switch self {
        case .ruleBroken(let rule): rule.action.rawValue
        case .jailbroken(let action): action.rawValue
        case .outsideGeofence, .offlineBlocked: "block"
        case .geofenceStopped: "not-enforced"
        case .ruleNotKnown, .jailbreakNotKnown, .locationNotKnown, .networkNotKnown: "not-known"
        }
    }

    /// Which setting it comes from: compliance, compromisedProtection, geofence or authentication.
    public var setting: PayloadKind {
        switch self {
        case .ruleBroken, .ruleNotKnown: .compliance
        case .jailbroken, .jailbreakNotKnown: .compromisedProtection
        case .outsideGeofence, .geofenceStopped, .locationNotKnown: .geofence
        case .offlineBlocked, .networkNotKnown: .authentication
        }
    }

    /// The finding as a sentence about the device's SDK apps, with apps by their names.
    public func sentence(appName: (String) -> String = { $0 }) -> String {
        func does(_ action: ComplianceRule.Action) -> String { action == .wipe ? "wiped (enterprise wipe)" : "blocked" }
        switch self {
        case .ruleBroken(let rule):
            return "SDK apps \(does(rule.action)): \(rule.describe(appName: appName)) (compliance rule, by the last reported version)"
        case .ruleNotKnown(let rule):
            let version = rule.appIdentifier.map { "\(appName($0))’s version" } ?? "the iOS version"
            return "Not known whether \(rule.describe(appName: appName)) would \(rule.action == .wipe ? "wipe" : "block"): the device has not reported \(version)"
        case .jailbroken(let action):
            return "SDK apps \(does(action)): the device last reported being jailbroken (compromised protection)"
        case .jailbreakNotKnown:
            return "Not known whether compromised protection acts: the device has not reported whether it is jailbroken"
        case .outsideGeofence(let area):
            return "SDK apps blocked: last reported outside every allowed area (nearest: \(area))"
        case .geofenceStopped:
            return "Geofence not enforced: location services were off when last reported"
        case .locationNotKnown:
            return "Not known whether the geofence blocks SDK apps: the device has not reported its location"
        case .offlineBlocked:
            return "SDK apps blocked: the device is offline and offline access does not allow it"
        case .networkNotKnown:
            return "Not known whether offline access blocks SDK apps: the device has not reported whether it is online"
        }
    }
}

extension DevicePolicy {
    /// What the SDK makes of a device in `conditions` under this policy, in the order the
    /// blocker checks (compliance and compromised protection, geofence, offline access).
    /// Nothing on a device without an SDK app: nobody there enforces anything.
    public func sdkFindings(on conditions: DeviceConditions) -> [SDKFinding] {
        guard !conditions.sdkApps.isEmpty else { return [] }
        let enforcement = SDKEnforcement.judge(self, on: conditions)
        var findings = enforcement.brokenRules.map(SDKFinding.ruleBroken) + enforcement.notKnownRules.map(SDKFinding.ruleNotKnown)
        if let action = enforcement.compromisedAction { findings.append(.jailbroken(action)) }
        if enforcement.jailbreakNotKnown { findings.append(.jailbreakNotKnown) }
        switch geofenceVerdict(on: conditions) {
        case .outside(let area, _): findings.append(.outsideGeofence(nearestArea: area))
        case .stopped: findings.append(.geofenceStopped)
        case .notKnown: findings.append(.locationNotKnown)
        case .none, .inside: break
        }
        switch offlineVerdict(on: conditions) {
        case .blocked: findings.append(.offlineBlocked)
        case .notKnown: findings.append(.networkNotKnown)
        case .none, .allowed: break
        }
        return findings
    }
}
