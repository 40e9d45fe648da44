/// The apps a real device's policy needs installed by the console, each sent with MDM's
/// `InstallApplication` as the catalog says (`AppDelivery`). Each app is a slot of its own,
/// named by an identifier that never changes, kept beside the device's profiles: an install is
/// sent once per content (method, store ID or manifest, management flags), again only when
/// that changes or the device lost the app.
///
/// An app that leaves the policy stays on the device: removing an app takes its data with it,
/// which only an admin's explicit choice may do.
public enum DeviceAppInstalls {
    public static let identifierPrefix = "com.payloadconsole.app-install."

    public static func identifier(of bundleID: String) -> String { identifierPrefix + bundleID }

    /// The app a slot's identifier names; nil for an identifier that is not an install slot.
    public static func app(of identifier: String) -> String? {
        identifier.hasPrefix(identifierPrefix) ? String(identifier.dropFirst(identifierPrefix.count)) : nil
    }

    /// The apps the policy needs on the device: Single App Mode's app, which must be there
    /// before the lock, and every app a profile requires. During a conflict the device keeps
    /// what it has: nothing is needed.
    public static func requiredApps(_ policy: EffectivePolicy) -> [String] {
        guard !policy.hasConflict else { return [] }
        var seen: Set<String> = []
        let apps = (policy[SingleAppMode.self].map { [$0.value.appIdentifier] } ?? []) + (policy[RequiredApps.self]?.value.appIdentifiers ?? [])
        return apps.filter { seen.insert($0).inserted }
    }

    /// What one required app becomes on the device.
    public enum Target: Equatable, Sendable {
        /// Installed as the catalog says (`AppDelivery.installKeys`; the app's configuration is
        /// added when the command is sent).
        case install(AppDelivery)
        /// Not installable by the console: the catalog does not say how devices get it.
        case undeliverable(reason: String)
    }

    /// The target for each required app, by the catalog's deliveries (by bundle ID).
    public static func targets(for policy: EffectivePolicy, deliveries: [String: AppDelivery]) -> [(app: String, target: Target)] {
        requiredApps(policy).map { app in
            guard let delivery = deliveries[app] else {
                return (app, .undeliverable(reason: "The console cannot install \(app): the app catalog does not say how devices get it "
                    + "(App Store, in-house, or already on the device)."))
            }
            return (app, .install(delivery))
        }
    }
}
