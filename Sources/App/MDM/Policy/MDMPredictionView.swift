import Domain
import Foundation
import Mustache

/// A real device's page: what its effective policy predicts the device does (as the simulator
/// plays it — locked to which app, which apps may lock it, which settings and apps it carries)
/// beside what the device itself last reported (its profile and app lists, the configurations
/// it acknowledged), and where the two disagree.
struct MDMPredictionView {
    struct Row {
        let aspect: String
        let predicted: String
        let reported: String
        let agrees: Bool
    }

    let rows: [Row]
    /// When the device last listed its profiles or apps, in words; nil when it never did.
    let reportedAt: String?

    var summary: String {
        if reportedAt == nil { return "The device has not reported its profiles and apps yet: nothing to compare." }
        let differing = rows.filter { !$0.agrees }.map(\.aspect)
        return differing.isEmpty ? "The device agrees with the prediction."
            : "The device disagrees with the prediction on: \(differing.joined(separator: ", "))."
    }

    init(policy: EffectivePolicy?, isSupervised: Bool, installedApps: [String], inventory: MDMInventory, held: [MDMDeviceProfileRecord], now: Date) {
        reportedAt = inventory.updatedAt.flatMap { inventory.profiles == nil && inventory.apps == nil ? nil : DisplayTime.relative($0, now: now) }
        let rows = held.reduce(into: [String: MDMDeviceProfileRecord]()) { $0[$1.identifier] = $1 }
        let listed = inventory.profiles.map { profiles in Dictionary(profiles.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first }) }
        var found = [Self.lock(PolicyLock.of(policy, isSupervised: isSupervised, installedApps: installedApps),
                               listed: listed, held: rows[DevicePolicyProfiles.singleAppModeIdentifier])]
        found.append(Self.settings(policy, listed: listed, held: rows[DevicePolicyProfiles.policyIdentifier]))
        let apps = inventory.apps.map { Dictionary($0.map { ($0.identifier, $0) }, uniquingKeysWith: { first, _ in first }) }
        if let policy {
            found += DeviceAppInstalls.requiredApps(policy).map { Self.app($0, listed: apps) }
            found += DeviceAppConfigurations.configuredApps(policy).sorted().map { app in
                Self.configuration(app, installed: installedApps.contains(app), held: rows[DeviceAppConfigurations.identifier(of: app)])
            }
        }
        self.rows = found
    }

    /// The version of a console profile the device listed: the one the console sent last
    /// (its UUID is made from the content's digest), another, or none.
    private static func version(_ identifier: String, listed: [String: MDMInventory.Profile]?, held: MDMDeviceProfileRecord?) -> String? {
        guard let profile = listed?[identifier] else { return nil }
        let sent = [held?.installedDigest, held?.sendingDigest].compactMap { $0 }.map(MDMPolicyPlan.stableUUID)
        return sent.contains(profile.uuid ?? "") ? "current" : "other"
    }

    private static func lock(_ lock: PolicyLock, listed: [String: MDMInventory.Profile]?, held: MDMDeviceProfileRecord?) -> Row {
        let predicted: String
        var expectsLock: Bool? = false
        switch lock {
        case .noPolicy: predicted = "Not locked: no profile reaches it"
        case .unlocked(let asam):
            predicted = "Not locked" + (asam.map { "; \($0.value.joined(separator: ", ")) may lock it themselves (ASAM)" } ?? "; no app may lock it")
        case .conflict(let apps, _):
            predicted = "Keeps what it had: profiles lock it to different apps (\(apps.joined(separator: ", ")))"
            expectsLock = nil
        case .singleAppMode(let app, _, nil):
            predicted = "Locked to \(app)"
            expectsLock = true
        case .singleAppMode(let app, _, .notSupervised?): predicted = "Not locked to \(app): the device is not supervised"
        case .singleAppMode(let app, _, .appNotInstalled?): predicted = "Not locked to \(app) yet: the app is not installed"
        }
        let version = version(DevicePolicyProfiles.singleAppModeIdentifier, listed: listed, held: held)
        let reported = listed == nil ? "Not reported yet"
            : version == nil ? "No Single App Mode profile" : version == "current" ? "Holds the Single App Mode profile the console sent"
            : "Holds a Single App Mode profile the console did not send last"
        let agrees = listed == nil || expectsLock.map { $0 == (version == "current") } ?? true
        return Row(aspect: "Single App Mode", predicted: predicted, reported: reported, agrees: agrees)
    }

    private static func settings(_ policy: EffectivePolicy?, listed: [String: MDMInventory.Profile]?, held: MDMDeviceProfileRecord?) -> Row {
        let travelling = (policy?.settings ?? []).filter { $0.kind != SingleAppMode.kind && ($0.kind.isApplePayload || ($0.kind.isSDKPayload && $0.kind != ManagedAppConfiguration.kind)) }
        let predicted = travelling.isEmpty ? "None" : travelling.map { setting in
            setting.payload.settings(as: ASAMAllowlist.self).map { "ASAM allowlist (\($0.appIdentifiers.joined(separator: ", ")))" } ?? setting.kind.displayName
        }.joined(separator: ", ")
        let version = version(DevicePolicyProfiles.policyIdentifier, listed: listed, held: held)
        let reported = listed == nil ? "Not reported yet"
            : version == nil ? "No Payload Console policy profile" : version == "current" ? "Holds the policy profile the console sent"
            : "Holds a policy profile the console did not send last"
        let agrees = listed == nil || (travelling.isEmpty ? version == nil : version == "current")
        return Row(aspect: "Restrictions and SDK settings", predicted: predicted, reported: reported, agrees: agrees)
    }

    private static func app(_ bundleID: String, listed: [String: MDMInventory.App]?) -> Row {
        let reported: String
        let agrees: Bool
        switch listed?[bundleID] {
        case nil where listed == nil: (reported, agrees) = ("Not reported yet", true)
        case nil: (reported, agrees) = ("Not on the device", false)
        case let app? where app.downloadFailed: (reported, agrees) = ("Its download failed", false)
        case let app? where app.installing: (reported, agrees) = ("Installing", false)
        case let app?: (reported, agrees) = ("Installed" + (app.version.map { " (\($0))" } ?? ""), true)
        }
        return Row(aspect: "App \(bundleID)", predicted: "Installed (the policy requires it)", reported: reported, agrees: agrees)
    }

    private static func configuration(_ bundleID: String, installed: Bool, held: MDMDeviceProfileRecord?) -> Row {
        guard installed else {
            return Row(aspect: "Configuration of \(bundleID)", predicted: "Sent once the app is installed", reported: "The app is not installed", agrees: true)
        }
        let delivered = held.map { $0.installedDigest != nil && $0.sendingDigest == nil && $0.failedDigest == nil } ?? false
        let reported = delivered ? "Acknowledged the current configuration"
            : held?.failedDigest != nil ? "Refused it: \(held?.lastError ?? "no reason given")" : "Not acknowledged yet"
        return Row(aspect: "Configuration of \(bundleID)", predicted: "Has the policy's managed configuration", reported: reported, agrees: delivered)
    }
}

extension MDMPredictionView: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "rows": rows
        case "summary": summary
        case "hasDisagreements": rows.contains { !$0.agrees } && reportedAt != nil
        default: nil
        }
    }
}

extension MDMPredictionView.Row: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "aspect": aspect
        case "predicted": predicted
        case "reported": reported
        case "agrees": agrees
        default: nil
        }
    }
}
