import Domain
import Foundation

/// A few readable lines per payload for the profile page.
enum PayloadSummary {
    static func lines(_ payload: Payload) -> [String] {
        switch payload {
        case .singleAppMode(let lock):
            let on = SingleAppMode.optionFields.filter { lock.options[keyPath: $0.keyPath] }.map(\.label)
            let user = SingleAppMode.userEnabledOptionFields.filter { lock.userEnabledOptions[keyPath: $0.keyPath] }.map(\.label)
            return ["Locks to \(lock.appIdentifier)",
                    on.isEmpty ? "No options set" : "Options: " + on.joined(separator: ", "),
                    user.isEmpty ? "The user may toggle nothing" : "The user may toggle: " + user.joined(separator: ", ")]
        case .asamAllowlist(let list):
            // An effective list can be empty when profiles' lists share no app.
            if list.appIdentifiers.isEmpty { return ["No app may lock the device"] }
            return ["\(list.appIdentifiers.count) app(s) may lock the device: " + list.appIdentifiers.joined(separator: ", ")]
        case .dlp(let dlp):
            return DataLossPrevention.fields.map { "\($0.label): \(dlp[keyPath: $0.keyPath] ? "Yes" : "No")" }
        case .geofence(let fence):
            return fence.areas.map { "\($0.name): \(GeofenceForm.format($0.latitude)), \(GeofenceForm.format($0.longitude)), radius \(GeofenceForm.describeDistance($0.radiusMeters))" }
        case .logging(let logging):
            return [logging.enabled ? "Enabled at \(logging.level.displayName) and more severe" : "Disabled",
                    logging.wifiOnly ? "Uploads over Wi-Fi only" : "Uploads over any network"]
        case .branding(let branding):
            return [branding.enabled ? "Enabled, highlight \(branding.primaryColor.hex)" : "Disabled"]
        case .authentication(let auth):
            return ["\(auth.type.displayName)\(auth.singleSignOn ? " with single sign-on" : "")",
                    auth.offlineAccessEnabled ? "Offline for up to \(auth.maximumOfflineMinutes) minutes" : "No offline access"]
        case .managedAppConfig(let config):
            return ["\(config.keys.count) key(s) for \(config.appIdentifier)"]
        case .customSettings(let settings):
            return ["\(settings.format.displayName), \(settings.text.utf8.count) bytes"]
        case .compliance(let compliance):
            return compliance.rules.map { "\($0.describe()): \($0.action.displayName.lowercased())" }
        case .compromisedProtection(let protection):
            return [protection.enabled ? "On a jailbroken device: \(protection.action.displayName.lowercased())" : "Disabled"]
        case .certificatePinning(let pinning):
            let expired = pinning.warnings(at: Date()).count
            return [pinning.enabled ? "\(pinning.certificates.count) certificate(s) pinned for \(pinning.hosts.joined(separator: ", "))" : "Disabled"]
                + (expired > 0 ? ["\(expired) pinned certificate(s) expired"] : [])
        case .appTunnel(let tunnel):
            return tunnel.mode == .everything ? ["Every address through the tunnel"]
                : ["All but \(tunnel.directAddresses.count) address(es) through the tunnel: " + tunnel.directAddresses.joined(separator: ", ")]
        case .integratedAuthentication(let integrated):
            return [integrated.enabled ? "\(integrated.credential.displayName) for \(integrated.allowedSites.joined(separator: ", "))" : "Disabled"]
        case .analytics(let analytics):
            return [analytics.enabled ? "Apps send their analytics events" : "Disabled"]
        }
    }
}
