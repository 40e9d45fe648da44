/// The profiles a real device must carry for its effective policy, as the console makes them
/// for MDM: not one per console profile but the effective policy itself, combined as the device
/// page explains it (one app for Single App Mode, the intersection of ASAM allowlists, …), so
/// what the device holds is exactly what the console says it gets. Apple would combine two
/// profiles' restrictions by its own rules, which are not the console's.
///
/// Two profiles, each with an identifier that never changes, so a new policy replaces the old
/// one on the device in place:
/// - **the policy** (`policyIdentifier`): the restrictions payload (the ASAM allowlist) and the
///   SDK settings, as an export carries them;
/// - **Single App Mode** (`singleAppModeIdentifier`) alone, because it has preconditions the rest
///   does not: Apple installs it only on a supervised device, and the app must be on the device
///   first (a lock into a missing app leaves the device unusable). A missing precondition holds
///   back only the lock, never the rest of the policy.
public enum DevicePolicyProfiles {
    public static let policyIdentifier = "com.payloadconsole.policy"
    public static let singleAppModeIdentifier = "com.payloadconsole.policy.app-lock"
    public static let identifiers = [policyIdentifier, singleAppModeIdentifier]

    /// What the console knows of the device that decides what it can carry.
    public struct Device: Hashable, Sendable {
        public var isSupervised: Bool
        public var installedApps: Set<String>
        /// Apps the console can install (`DeviceAppInstalls`): a lock into one of them waits for
        /// the console's install rather than for someone else's.
        public var deliverableApps: Set<String>

        public init(isSupervised: Bool, installedApps: Set<String>, deliverableApps: Set<String> = []) {
            self.isSupervised = isSupervised
            self.installedApps = installedApps
            self.deliverableApps = deliverableApps
        }
    }

    /// What becomes of one of the console's profiles on the device.
    public enum Target: Sendable {
        /// The device carries this profile (installed, or replacing an older one).
        case carry(ProfileExportInput)
        /// The device carries no such profile; `reason` says why when the policy has the
        /// payload but the device cannot take it.
        case absent(reason: String?)
        /// The device keeps what it has, for `reason` (a Single App Mode conflict).
        case unchanged(reason: String)

        public var reason: String? {
            switch self {
            case .carry: nil
            case .absent(let reason): reason
            case .unchanged(let reason): reason
            }
        }
    }

    /// Each of the console's profile identifiers with its target for the device. `stableUUID`
    /// names a payload by its identifier: the same payload keeps its UUID from one version to
    /// the next, so the device updates it in place. The profile's own `uuid` is left empty for
    /// the caller, which names it by its content.
    public static func targets(for policy: EffectivePolicy, device: Device, organization: String,
                               stableUUID: (String) -> String) -> [(identifier: String, target: Target)] {
        if policy.hasConflict {
            let reason = "Profiles lock this device to different apps (\(policy.conflictApps.joined(separator: ", "))): "
                + "it keeps what it has until one of them is unassigned."
            return identifiers.map { ($0, .unchanged(reason: reason)) }
        }
        return [(policyIdentifier, policyTarget(policy, organization: organization, stableUUID: stableUUID)),
                (singleAppModeIdentifier, lockTarget(policy, device: device, organization: organization, stableUUID: stableUUID))]
    }

    private static func policyTarget(_ policy: EffectivePolicy, organization: String, stableUUID: (String) -> String) -> Target {
        let settings = policy.settings.filter { setting in
            if setting.payload.settings(as: SingleAppMode.self) != nil { return false }
            if setting.payload.settings is any ApplePayloadSettings { return true }
            return (setting.payload.settings as? any SDKPayloadSettings).map { type(of: $0).travelsInMobileConfig } ?? false
        }
        guard !settings.isEmpty else { return .absent(reason: nil) }
        let payloads = settings.map { setting in
            ExportedPayload(payload: setting.payload, uuid: stableUUID("\(policyIdentifier).\(suffix(of: setting.payload))"))
        }
        return .carry(ProfileExportInput(
            identifier: policyIdentifier, uuid: "", displayName: "Payload Console policy",
            description: "The effective policy of this device, from " + sourceNames(settings.flatMap(\.sources)) + ".",
            organization: organization, payloads: payloads))
    }

    private static func lockTarget(_ policy: EffectivePolicy, device: Device, organization: String, stableUUID: (String) -> String) -> Target {
        guard let lock = policy[SingleAppMode.self] else { return .absent(reason: nil) }
        let app = lock.value.appIdentifier
        guard device.isSupervised else {
            return .absent(reason: "Single App Mode (\(app)) is not sent: Apple installs it only on supervised devices.")
        }
        guard device.installedApps.contains(app) else {
            let how = device.deliverableApps.contains(app) ? "the console installs it first, then the lock"
                : "the app catalog does not say how devices get it, so someone must install it"
            return .absent(reason: "Single App Mode waits for \(app) to be installed (\(how)): locking into a missing app would leave the device unusable.")
        }
        return .carry(ProfileExportInput(
            identifier: singleAppModeIdentifier, uuid: "", displayName: "Single App Mode: \(app)",
            description: "Locks this device to \(app), from " + sourceNames(lock.sources) + ".",
            organization: organization,
            payloads: [ExportedPayload(payload: Payload(lock.value), uuid: stableUUID("\(singleAppModeIdentifier).\(SingleAppMode.identifierSuffix)"))]))
    }

    /// What names a profile's content, and so decides whether the device must be sent it again:
    /// the profile without its own UUID (made from this) and without its description, which
    /// only says where the settings came from. Renaming a source profile, or assigning one that
    /// adds nothing to the combined policy, changes no setting and sends no device anything.
    public static func identity(of input: ProfileExportInput) -> String {
        var bare = input
        bare.uuid = ""
        bare.description = ""
        return MobileConfig.xml(for: bare)
    }

    /// The console profiles a payload came from, each named once in a stable order: the
    /// description is part of the content, so it must not change when nothing else did.
    private static func sourceNames(_ sources: [PolicySource]) -> String {
        Array(Set(sources.map(\.profileName))).sorted().joined(separator: ", ")
    }

    /// An Apple payload's own suffix; the SDK payloads travel together in one vendor payload,
    /// which keeps one UUID whichever of them it carries.
    private static func suffix(of payload: Payload) -> String {
        (payload.settings as? any ApplePayloadSettings).map { type(of: $0).identifierSuffix } ?? "sdk"
    }
}
