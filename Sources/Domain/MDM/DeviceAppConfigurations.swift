/// The managed app configuration a real device's apps should have, app by app: what the
/// effective policy configures for each app installed on the device, sent with MDM's Settings
/// command (`ApplicationConfiguration`). Each app is a slot of its own, named by an identifier
/// that never changes, so one app's new configuration is sent without the others', and an app
/// whose configuration left the policy has it removed (a Settings item without
/// `Configuration`).
public enum DeviceAppConfigurations {
    public static let identifierPrefix = "com.payloadconsole.app-configuration."

    public static func identifier(of bundleID: String) -> String { identifierPrefix + bundleID }

    /// The app a slot's identifier names; nil for an identifier that is not an app's slot.
    public static func app(of identifier: String) -> String? {
        identifier.hasPrefix(identifierPrefix) ? String(identifier.dropFirst(identifierPrefix.count)) : nil
    }

    /// The apps the policy configures: what decides which of a device's installed apps matter.
    public static func configuredApps(_ policy: EffectivePolicy) -> Set<String> {
        Set(policy.all(ManagedAppConfiguration.self).map(\.value.appIdentifier))
    }

    /// Each configured app on the device with the dictionary it should receive, by bundle ID.
    /// During a conflict the device keeps what it has: nothing is planned.
    public static func configurations(for policy: EffectivePolicy, installedApps: Set<String>) -> [(app: String, configuration: PropertyList)] {
        guard !policy.hasConflict else { return [] }
        return policy.all(ManagedAppConfiguration.self).map(\.value).filter { installedApps.contains($0.appIdentifier) }
            .sorted { $0.appIdentifier < $1.appIdentifier }.map { ($0.appIdentifier, $0.dictionary) }
    }
}
