import Foundation

/// What the SDK in the device's apps makes of compliance and compromised protection: whether
/// its apps are blocked, and whether the device must be wiped. Derived from the state every
/// time, like the screen.
public struct SDKEnforcement: Equatable, Sendable {
    /// The compliance rules the device breaks, in the policy's order.
    public let brokenRules: [ComplianceRule]
    /// Set when compromised protection is on and the device is jailbroken.
    public let compromisedAction: ComplianceRule.Action?
    /// Rules about a version the device has not reported (only from the console's reports).
    public let notKnownRules: [ComplianceRule]
    /// Compromised protection is on and whether the device is jailbroken was never reported.
    public let jailbreakNotKnown: Bool

    /// What the rules and compromised protection of `policy` make of a device in `conditions`:
    /// the one judgement the simulated SDK and the console's impact preview share.
    public static func judge(_ policy: DevicePolicy, on conditions: DeviceConditions) -> SDKEnforcement {
        let verdict = ComplianceVerdict.judge(policy[Compliance.self]?.rules ?? [], osVersion: conditions.osVersion, appVersions: conditions.appVersions,
                                              installedApps: conditions.installedApps)
        let protection = policy[CompromisedProtection.self].flatMap { $0.enabled ? $0 : nil }
        return SDKEnforcement(brokenRules: verdict.broken, compromisedAction: conditions.isJailbroken == true ? protection?.action : nil,
                              notKnownRules: verdict.notKnown, jailbreakNotKnown: protection != nil && conditions.isJailbroken == nil)
    }

    /// Wipe when any broken rule or the compromised protection wipes; block when anything else is broken.
    public var action: ComplianceRule.Action? {
        let actions = brokenRules.map(\.action) + (compromisedAction.map { [$0] } ?? [])
        return actions.contains(.wipe) ? .wipe : actions.first
    }

    public var isCompliant: Bool { action == nil }

    /// Why SDK apps are blocked, as the blocker says it.
    public func reason(appName: (String) -> String) -> String {
        var reasons: [String] = []
        if compromisedAction != nil { reasons.append("this device is jailbroken (compromised protection)") }
        reasons += brokenRules.map { "\($0.describe(appName: appName)) (compliance rule)" }
        return "Out of compliance: " + reasons.joined(separator: "; ") + "."
    }
}

/// The state the status beacon and the device list report.
public enum ComplianceState: String, CaseIterable, Codable, Sendable {
    case compliant, blocked, wiped

    public var displayName: String {
        switch self {
        case .compliant: "Compliant"
        case .blocked: "Blocked"
        case .wiped: "Wiped"
        }
    }
}

extension SimulatedDevice {
    public var enforcement: SDKEnforcement {
        var conditions = conditions
        // States stored before compliance existed have no iOS version: nothing to compare, so
        // no OS rule acts (the device itself never has a version it does not know).
        conditions.osVersion = conditions.osVersion ?? ""
        return SDKEnforcement.judge(policy, on: conditions)
    }

    /// Why SDK apps are blocked, as their blocker, the beacon and the API say it; nil while
    /// the device is compliant.
    public var complianceReason: String? {
        let enforcement = enforcement
        return enforcement.isCompliant ? nil : enforcement.reason { app($0)?.name ?? $0 }
    }

    /// Only an SDK app enforces: a device without one has nobody to block or wipe it.
    public var hasSDKApp: Bool { apps.contains(where: \.isSDKBuilt) }

    public var complianceState: ComplianceState {
        if wipedAt != nil { return .wiped }
        return enforcement.isCompliant || !hasSDKApp ? .compliant : .blocked
    }
}

extension Step {
    /// Runs after every action, as the SDK checks whenever its apps start or the policy
    /// changes: a wipe removes the managed apps with their configuration, feedback and what
    /// they put on the pasteboard. Logs already uploaded stay in the console; messages still
    /// waiting on the device go with their apps.
    mutating func enforceWipe() {
        guard device.wipedAt == nil, device.hasSDKApp, device.enforcement.action == .wipe, let reason = device.complianceReason else { return }
        let removed = device.apps.filter(\.isManaged)
        let removedIDs = Set(removed.map(\.bundleID))
        device.apps.removeAll { removedIDs.contains($0.bundleID) }
        for bundleID in removedIDs {
            device.feedback[bundleID] = nil
            device.appVersions?[bundleID] = nil
        }
        device.pendingLogs.removeAll { removedIDs.contains($0.app) }
        device.crashedApps = device.crashedApps.filter { !removedIDs.contains($0.key) }
        if device.pasteboard?.fromManagedApp == true { device.pasteboard = nil }
        device.signedInApps.removeAll { removedIDs.contains($0) }
        if let open = device.foregroundApp, removedIDs.contains(open) { device.foregroundApp = nil }
        if let lock = device.lock, removedIDs.contains(lock.app) { device.lock = nil }
        device.wipedAt = device.clock
        let names = removed.map(\.name).joined(separator: ", ")
        let note = " Enterprise wipe — \(reason) Removed \(removed.isEmpty ? "no managed app" : names) with their configuration and feedback; uploaded logs stay in the console."
        if var event {
            event.message += note
            event.rule += "; a wipe rule removes the managed apps"
            event.result = .done
            self.event = event
        } else {
            record("Compliance check", rule: "A wipe rule removes the managed apps", .done, String(note.dropFirst()))
        }
    }
}
