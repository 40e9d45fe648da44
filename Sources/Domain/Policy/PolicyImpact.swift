/// What a change to assignments or to a profile will do to the devices it reaches, worked out
/// with the same effective-policy rules before the change is made: each affected group's
/// policy before and after, which devices lock, unlock or switch app, which conflicts appear
/// or go, and which settings change.
public struct PolicyImpact: Sendable {
    /// A device as the preview needs it: whether Single App Mode can hold it (supervised, with
    /// the app installed), and what it last reported for the SDK's rules (nil when no SDK rule
    /// is on either side, so nobody read it).
    public struct Device: Sendable {
        public let id: Int64
        public let name: String
        public let isSupervised: Bool
        public let installedApps: [String]
        public let conditions: DeviceConditions?
        /// Enrolled over MDM: the change reaches it as commands the console queues.
        public let isReal: Bool

        public init(id: Int64, name: String, isSupervised: Bool, installedApps: [String], conditions: DeviceConditions? = nil, isReal: Bool = false) {
            self.id = id
            self.name = name
            self.isSupervised = isSupervised
            self.installedApps = installedApps
            self.conditions = conditions
            self.isReal = isReal
        }

        /// The app Single App Mode holds the device in under `policy`, if it can.
        func lockedApp(under policy: EffectivePolicy) -> String? {
            PolicyLock.of(policy, isSupervised: isSupervised, installedApps: installedApps).lockedApp
        }
    }

    /// One group the change reaches: its devices and the profiles reaching it either side.
    public struct GroupInput: Sendable {
        public let name: String
        public let devices: [Device]
        public let before: [ReachingProfile]
        public let after: [ReachingProfile]

        public init(name: String, devices: [Device], before: [ReachingProfile], after: [ReachingProfile]) {
            self.name = name
            self.devices = devices
            self.before = before
            self.after = after
        }
    }

    public struct GroupOutcome: Sendable {
        public let name: String
        public let deviceCount: Int
        public let realDeviceCount: Int
        /// Single App Mode apps in conflict after the change, when they were not before.
        public let newConflict: [String]
        /// A conflict the change resolves.
        public let resolvedConflict: [String]
        /// Setting by setting, by their stored keys; empty when nothing changes or a conflict
        /// keeps the devices on their current policy.
        public let changes: [ProfileChange]
        /// The effective policy before and after as a profile's content, for a page to word the
        /// difference its own way; equal when a conflict keeps the devices where they are.
        public let policyBefore: ProfileContent
        public let policyAfter: ProfileContent
        /// Profiles that lock the group's devices to the same app after the change, when the
        /// change makes them several: one lock, not a conflict, with the first one's options.
        public let sharedLock: SharedLock?
    }

    public struct SharedLock: Sendable, Equatable {
        public let app: String
        /// Nearest group first, then oldest: the first one's options apply.
        public let profiles: [String]
    }

    /// A device whose Single App Mode changes: nil on a side means not locked.
    public struct LockChange: Sendable {
        public let device: String
        public let group: String
        public let before: String?
        public let after: String?
    }

    /// Something the SDK in a device's apps starts or stops doing (or can no longer be judged).
    public struct SDKChange: Sendable {
        public let device: String
        public let group: String
        public let finding: SDKFinding
        /// True when it holds after the change and not before; false when the change ends it.
        public let starts: Bool
    }

    /// Commands of one kind the console will queue for real devices, for one of its profiles (or, for
    /// an app install or configuration, one app by bundle ID).
    public struct MDMCommands: Sendable, Equatable {
        public let requestType: DeviceCommand.RequestType
        public let profile: String
        public var devices: Int

        public init(requestType: DeviceCommand.RequestType, profile: String, devices: Int) {
            self.requestType = requestType
            self.profile = profile
            self.devices = devices
        }
    }

    public let groups: [GroupOutcome]
    public let lockChanges: [LockChange]
    public let sdkChanges: [SDKChange]
    /// What the change queues for real devices, install before removal, by profile.
    public let mdmCommands: [MDMCommands]

    /// Real devices (enrolled over MDM) among those reached; the others are simulated or added by hand.
    public var realDevicesReached: Int { groups.reduce(0) { $0 + $1.realDeviceCount } }

    public var devicesReached: Int { groups.reduce(0) { $0 + $1.deviceCount } }
    /// Devices whose policy is different afterwards (a new conflict counts: they stop taking updates).
    public var devicesChanged: Int {
        groups.filter { !$0.changes.isEmpty || !$0.newConflict.isEmpty || !$0.resolvedConflict.isEmpty }.reduce(0) { $0 + $1.deviceCount }
    }
    public var locking: [LockChange] { lockChanges.filter { $0.before == nil && $0.after != nil } }
    public var unlocking: [LockChange] { lockChanges.filter { $0.before != nil && $0.after == nil } }
    public var switching: [LockChange] { lockChanges.filter { $0.before != nil && $0.after != nil } }
    public var changesNothing: Bool { devicesChanged == 0 && lockChanges.isEmpty }
    public var sdkStarting: [SDKChange] { sdkChanges.filter(\.starts) }
    public var sdkEnding: [SDKChange] { sdkChanges.filter { !$0.starts } }

    /// `deliverableApps`: the apps the catalog says how to install, which a change that needs
    /// them sends with InstallApplication.
    public static func compute(_ inputs: [GroupInput], deliverableApps: Set<String> = []) -> PolicyImpact {
        var groups: [GroupOutcome] = []
        var locks: [LockChange] = []
        var sdk: [SDKChange] = []
        var commands = MDMCommandTally()
        for input in inputs {
            let before = EffectivePolicy.compute(from: input.before), after = EffectivePolicy.compute(from: input.after)
            let conflictBefore = before.conflictApps, conflictAfter = after.conflictApps
            // A conflict keeps devices on the policy they have: nothing else of the change arrives.
            let policyBefore = Self.content(before), policyAfter = after.hasConflict ? policyBefore : Self.content(after)
            groups.append(GroupOutcome(
                name: input.name, deviceCount: input.devices.count, realDeviceCount: input.devices.filter(\.isReal).count,
                newConflict: conflictBefore.isEmpty ? conflictAfter : [], resolvedConflict: conflictAfter.isEmpty ? conflictBefore : [],
                changes: ProfileDiff.changes(from: policyBefore, to: policyAfter), policyBefore: policyBefore, policyAfter: policyAfter,
                sharedLock: Self.sharedLock(before: before, after: after)))
            commands.count(input.devices.filter(\.isReal), before: before, after: after, deliverableApps: deliverableApps)
            guard !after.hasConflict else { continue }
            let rulesBefore = DevicePolicy(before) ?? .empty, rulesAfter = DevicePolicy(after) ?? .empty
            for device in input.devices {
                let locked = device.lockedApp(under: before), willLock = device.lockedApp(under: after)
                if locked != willLock { locks.append(LockChange(device: device.name, group: input.name, before: locked, after: willLock)) }
                guard let conditions = device.conditions else { continue }
                let was = rulesBefore.sdkFindings(on: conditions), will = rulesAfter.sdkFindings(on: conditions)
                sdk += will.filter { !was.contains($0) }.map { SDKChange(device: device.name, group: input.name, finding: $0, starts: true) }
                sdk += was.filter { !will.contains($0) }.map { SDKChange(device: device.name, group: input.name, finding: $0, starts: false) }
            }
        }
        return PolicyImpact(groups: groups, lockChanges: locks, sdkChanges: sdk, mdmCommands: commands.tally)
    }


    /// Several profiles locking to one app after the change, when they were not the same ones before.
    static func sharedLock(before: EffectivePolicy, after: EffectivePolicy) -> SharedLock? {
        guard !after.hasConflict, let lock = after[SingleAppMode.self] else { return nil }
        var seen: Set<String> = []
        let profiles = lock.sources.map(\.profileName).filter { seen.insert($0).inserted }
        let earlier = before[SingleAppMode.self]?.sources.map(\.profileName) ?? []
        guard profiles.count > 1, Set(profiles) != Set(earlier) else { return nil }
        return SharedLock(app: lock.value.appIdentifier, profiles: profiles)
    }

    /// The effective policy as a profile's content, so its settings compare as the history's do.
    static func content(_ policy: EffectivePolicy) -> ProfileContent {
        ProfileContent(name: "", payloads: DevicePolicy(policy)?.payloads ?? [])
    }
}

/// The commands a change queues for real devices: InstallProfile and RemoveProfile for each
/// device's profiles (`DevicePolicyProfiles`) before and after, compared by content;
/// InstallApplication for an app it newly needs that the catalog can deliver
/// (`DeviceAppInstalls`); Settings for an installed app whose configuration changes
/// (`DeviceAppConfigurations`). Worked out once per kind of device (supervised or not, with
/// which of the apps that matter).
struct MDMCommandTally {
    private(set) var tally: [PolicyImpact.MDMCommands] = []

    private struct Kind: Hashable {
        let isSupervised: Bool
        let apps: Set<String>
    }

    mutating func count(_ devices: [PolicyImpact.Device], before: EffectivePolicy, after: EffectivePolicy, deliverableApps: Set<String> = []) {
        let lockApps = Set([before, after].compactMap { $0[SingleAppMode.self]?.value.appIdentifier })
        let configured = DeviceAppConfigurations.configuredApps(before).union(DeviceAppConfigurations.configuredApps(after))
        var kinds: [Kind: Int] = [:]
        for device in devices {
            kinds[Kind(isSupervised: device.isSupervised, apps: lockApps.union(configured).intersection(device.installedApps)), default: 0] += 1
        }
        let newlyNeeded = after.hasConflict ? [] : DeviceAppInstalls.requiredApps(after).filter { app in
            deliverableApps.contains(app) && (before.hasConflict || !DeviceAppInstalls.requiredApps(before).contains(app))
        }
        for (kind, count) in kinds.sorted(by: { $0.value > $1.value }) {
            for app in newlyNeeded { add(.installApplication, app, count) }
            countConfigurations(before: before, after: after, installed: kind.apps, count)
            let device = DevicePolicyProfiles.Device(isSupervised: kind.isSupervised, installedApps: kind.apps.intersection(lockApps),
                                                     deliverableApps: deliverableApps)
            let was = Dictionary(uniqueKeysWithValues: DevicePolicyProfiles.targets(for: before, device: device, organization: "", stableUUID: { $0 }))
            for (identifier, target) in DevicePolicyProfiles.targets(for: after, device: device, organization: "", stableUUID: { $0 }) {
                switch (was[identifier], target) {
                case (_, .unchanged), (.unchanged?, .absent):
                    continue
                case (let old, .carry(let input)):
                    if case .carry(let previous)? = old, DevicePolicyProfiles.identity(of: previous) == DevicePolicyProfiles.identity(of: input) { continue }
                    add(.installProfile, input.displayName, count)
                case (.carry(let previous)?, .absent):
                    add(.removeProfile, previous.displayName, count)
                case (_, .absent):
                    continue
                }
            }
        }
    }

    /// Settings carrying (or removing) each installed app's configuration that differs.
    private mutating func countConfigurations(before: EffectivePolicy, after: EffectivePolicy, installed: Set<String>, _ count: Int) {
        guard !after.hasConflict else { return }
        let was = Dictionary(DeviceAppConfigurations.configurations(for: before, installedApps: installed).map { ($0.app, $0.configuration) },
                             uniquingKeysWith: { first, _ in first })
        let will = Dictionary(DeviceAppConfigurations.configurations(for: after, installedApps: installed).map { ($0.app, $0.configuration) },
                              uniquingKeysWith: { first, _ in first })
        for app in Set(was.keys).union(will.keys).sorted() where was[app] != will[app] {
            add(.settings, app, count)
        }
    }

    /// Installs first (apps, then profiles), then configurations, then removals.
    private static func order(_ type: DeviceCommand.RequestType) -> Int {
        switch type {
        case .installApplication: 0
        case .installProfile: 1
        case .settings: 2
        default: 3
        }
    }

    private mutating func add(_ type: DeviceCommand.RequestType, _ profile: String, _ devices: Int) {
        if let index = tally.firstIndex(where: { $0.requestType == type && $0.profile == profile }) {
            tally[index].devices += devices
        } else {
            tally.append(PolicyImpact.MDMCommands(requestType: type, profile: profile, devices: devices))
            tally.sort { (Self.order($0.requestType), $0.profile) < (Self.order($1.requestType), $1.profile) }
        }
    }
}
