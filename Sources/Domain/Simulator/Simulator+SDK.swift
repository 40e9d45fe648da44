import Foundation

/// What the SDK checks besides the screen: the versions compliance compares, the jailbreak
/// compromised protection looks for, and the status beacon.
extension Step {
    mutating func setOSVersion(_ version: String) {
        guard let parsed = AppleVersion(version) else {
            record("Update iOS", rule: "iOS versions are numbers joined by dots", .refused, "\(version.clipped(to: 40)) is not a version such as 17.4.")
            return
        }
        device.osVersion = parsed.description
        let (result, message) = describeScreen()
        record("Update iOS to \(parsed)", rule: complianceRule, result, message)
    }

    mutating func setAppVersion(app bundleID: String, version: String) {
        let action = "Update \(name(bundleID))"
        guard installedApp(bundleID, for: action) != nil else { return }
        guard let parsed = AppleVersion(version) else {
            record(action, rule: "App versions are numbers joined by dots", .refused, "\(version.clipped(to: 40)) is not a version such as 5.2.")
            return
        }
        device.appVersions = (device.appVersions ?? [:]).merging([bundleID: parsed.description]) { $1 }
        let (result, message) = describeScreen()
        record("\(action) to \(parsed)", rule: complianceRule, result, message)
    }

    mutating func setJailbroken(_ jailbroken: Bool) {
        device.compromisedSince = jailbroken ? (device.compromisedSince ?? device.clock) : nil
        let protection = device.policy[CompromisedProtection.self]
        let rule = protection?.enabled == true
            ? "Compromised protection: a jailbroken device's SDK apps \(protection?.action == .wipe ? "are wiped" : "are blocked")"
            : "No compromised protection applies"
        let (result, message) = describeScreen()
        record(jailbroken ? "Jailbreak the device" : "Restore the device (not jailbroken)", rule: rule, result, message)
    }

    mutating func sendBeacon(app bundleID: String) {
        let action = "Send the status beacon from \(name(bundleID))"
        guard let app = installedApp(bundleID, for: action) else { return }
        guard app.isSDKBuilt else {
            record(action, rule: "Only SDK-built apps send the beacon", .refused, "\(app.name) is not built with the SDK.")
            return
        }
        beaconApp = bundleID
        record(action, rule: "The SDK sends its beacon on unlock and when the app asks", .done,
               "Beacon sent: \(device.complianceState.displayName.lowercased()), iOS \(device.osVersion ?? "unknown"), \(app.name) \(device.version(of: bundleID)).")
    }

    private var complianceRule: String {
        guard device.hasSDKApp, !(device.policy[Compliance.self]?.rules ?? []).isEmpty else { return "No compliance rule applies" }
        return device.enforcement.isCompliant ? "Compliance: no rule is broken" : "Compliance: a broken rule blocks SDK apps; a wipe beats a block"
    }
}
