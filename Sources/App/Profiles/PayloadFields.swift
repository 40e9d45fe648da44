import Domain
import Foundation

/// A payload as its form shows it: each setting under the form's own label, with the value
/// as the form shows it (levels and types by name, Yes/No, a colour with its swatch, a logo
/// with its picture, a configuration value as typed) — what the history compares, so a diff
/// reads in the payload's words rather than its stored keys.
enum PayloadFields {
    struct Field: Equatable {
        let label: String
        let value: String
        /// `#rrggbb` when the value is a colour to show as a swatch.
        var swatch: String?
        /// The stored image's address when the value is a logo to show as a thumbnail.
        var image: String?
    }

    static func fields(_ payload: Payload) -> [Field] {
        func yes(_ flag: Bool) -> String { flag ? "Yes" : "No" }
        switch payload {
        case .singleAppMode(let lock):
            return [Field(label: "App", value: lock.appIdentifier)]
                + SingleAppMode.optionFields.map { Field(label: $0.label, value: yes(lock.options[keyPath: $0.keyPath])) }
                + SingleAppMode.userEnabledOptionFields.map {
                    Field(label: "The user may toggle \($0.label)", value: yes(lock.userEnabledOptions[keyPath: $0.keyPath]))
                }
        case .asamAllowlist(let list):
            return [Field(label: "Apps that may lock the device", value: list.appIdentifiers.isEmpty ? "None" : list.appIdentifiers.joined(separator: ", "))]
        case .dlp(let dlp):
            return DataLossPrevention.fields.map { Field(label: $0.label, value: yes(dlp[keyPath: $0.keyPath])) }
        case .geofence(let fence):
            return fence.areas.map { area in
                Field(label: "Area “\(area.name)”",
                      value: "\(GeofenceForm.format(area.latitude)), \(GeofenceForm.format(area.longitude)), radius \(GeofenceForm.describeDistance(area.radiusMeters))")
            }
        case .logging(let logging):
            return [Field(label: "Enabled", value: yes(logging.enabled)), Field(label: "Level kept", value: "\(logging.level.displayName) and more severe"),
                    Field(label: "Upload over Wi-Fi only", value: yes(logging.wifiOnly))]
        case .branding(let branding):
            return [Field(label: "Enabled", value: yes(branding.enabled)),
                    Field(label: "Highlight colour", value: branding.primaryColor.hex, swatch: String(branding.primaryColor.hex.prefix(7)))]
                + BrandingForm.logoFields.map { logo in
                    let image = branding[keyPath: logo.keyPath]
                    return Field(label: logo.label, value: image.map { "\($0.width) × \($0.height) \($0.mediaType)" } ?? "None",
                                 image: image.map { Paths.image($0.id) })
                }
        case .authentication(let auth):
            return [Field(label: "Authentication type", value: auth.type.displayName), Field(label: "Single sign-on", value: yes(auth.singleSignOn)),
                    Field(label: "Offline access", value: auth.offlineAccessEnabled ? "Up to \(auth.maximumOfflineMinutes) minutes" : "No")]
        case .managedAppConfig(let config):
            return [Field(label: "App", value: config.appIdentifier)] + config.keys.map { key in
                Field(label: "Key “\(key.name)” (\(key.type.displayName.lowercased())\(key.required ? ", required" : ""))",
                      value: key.value.map(text) ?? "Not set")
            }
        case .customSettings(let settings):
            return [Field(label: "Format", value: settings.format.displayName), Field(label: "Settings the app receives", value: settings.text)]
        case .compliance(let compliance):
            return compliance.rules.enumerated().map { index, rule in
                Field(label: "Rule \(index + 1)", value: "\(rule.describe()): \(rule.action.displayName.lowercased())")
            }
        case .compromisedProtection(let protection):
            return [Field(label: "Check whether the device is jailbroken", value: yes(protection.enabled)),
                    Field(label: "On a jailbroken device", value: protection.action.displayName)]
        case .certificatePinning(let pinning):
            return [Field(label: "Enabled", value: yes(pinning.enabled)),
                    Field(label: "Pinned hosts", value: pinning.hosts.isEmpty ? "None" : pinning.hosts.joined(separator: ", "))]
                + pinning.certificates.map { certificate in
                    Field(label: "Certificate “\(certificate.subject)”",
                          value: "key SHA-256 \(certificate.publicKeySHA256), valid to \(PinnedCertificate.day(certificate.notAfter))")
                }
        case .appTunnel(let tunnel):
            return [Field(label: "What goes through the tunnel", value: tunnel.mode.displayName),
                    Field(label: "Addresses that go direct", value: tunnel.directAddresses.isEmpty ? "None" : tunnel.directAddresses.joined(separator: ", "))]
        case .integratedAuthentication(let integrated):
            return [Field(label: "Enabled", value: yes(integrated.enabled)),
                    Field(label: "Allowed sites", value: integrated.allowedSites.isEmpty ? "None" : integrated.allowedSites.joined(separator: ", ")),
                    Field(label: "Sign in with", value: integrated.credential.displayName)]
        case .analytics(let analytics):
            return [Field(label: "Send the analytics events apps record", value: yes(analytics.enabled))]
        }
    }

    /// A configuration value as a person typed it.
    static func text(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .real(let number): NumberText.plain(number)
        case .boolean(let flag): flag ? "Yes" : "No"
        case .date(let date): date.formatted(.iso8601)
        case .stringArray(let items): items.isEmpty ? "(empty list)" : items.joined(separator: ", ")
        }
    }
}
