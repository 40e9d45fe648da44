import Domain
import Foundation
import Signing
import Storage

/// What enrolled devices should carry, read in one snapshot: after a policy change every
/// enrolled device, otherwise the devices marked due. The effective policy is worked out once
/// per group and the profiles once per group and kind of device, so a hundred thousand devices
/// in one group make two documents, not two hundred thousand.
struct MDMPolicyPlan: Sendable {
    /// The policy generation read; stored as synced once the plan is written, when `everyDevice`.
    let generation: Int64
    let everyDevice: Bool
    /// The due marks read, each taken away once written (a mark made since stays).
    let dueMarks: [DueMark]
    /// Each enrolled device's profile targets, by identifier.
    let devices: [RecordID<DeviceRecord>: [Planned]]
    /// The documents the targets name, by digest, unsigned.
    let documents: [String: Document]

    struct DueMark: Codable, Sendable {
        let id: RecordID<DeviceRecord>
        let version: Int64
    }

    /// One of the console's profiles for one device: the digest it should carry (nil: none),
    /// or nil `digest` with `keep` when it keeps what it has; and why, when held back.
    struct Planned: Sendable {
        let identifier: String
        let digest: String?
        let keep: Bool
        let reason: String?
        let displayName: String?
    }

    struct Document: Sendable {
        let identifier: String
        let displayName: String
        let xml: [UInt8]
        /// Profiles are signed; an app's configuration travels inside the Settings command as it is.
        let signs: Bool
    }

    /// Marks read at most per run: a larger backlog is taken by the next run.
    static let dueBatch = 20_000

    static func read(connection: Connection, contents: ProfileContentCache) throws -> MDMPolicyPlan {
        let generation = try connection.fetch(Counter.self, "SELECT value FROM policy_generation WHERE id = 1").first?.value ?? 0
        let synced = try connection.fetch(Counter.self, "SELECT generation AS value FROM mdm_policy_sync WHERE id = 1").first?.value
        let everyDevice = synced != generation
        // A run over every device takes every mark; otherwise a batch at a time.
        let marks = try connection.fetch(DueMark.self, SQL(verbatim: "SELECT id, version FROM mdm_policy_due ORDER BY id" + (everyDevice ? "" : " LIMIT \(dueBatch)")))
        guard everyDevice || !marks.isEmpty else {
            return MDMPolicyPlan(generation: generation, everyDevice: false, dueMarks: [], devices: [:], documents: [:])
        }
        let facts = try enrolledDevices(everyDevice ? nil : marks.map(\.id), connection: connection)
        var planner = Planner(loader: PolicyLoader(connection: connection, cache: contents),
                              organization: try ConsoleSettings.load(from: connection).organisationName,
                              deliveries: try AppRecord.deliveries(connection))
        var devices: [RecordID<DeviceRecord>: [Planned]] = [:]
        for device in facts { devices[device.id] = try planner.targets(for: device) }
        return MDMPolicyPlan(generation: generation, everyDevice: everyDevice, dueMarks: marks, devices: devices, documents: planner.documents)
    }

    private struct Counter: Codable {
        let value: Int64
    }

    /// What decides a device's profiles.
    struct DeviceFacts: Codable {
        let id: RecordID<DeviceRecord>
        let groupID: RecordID<DeviceGroupRecord>?
        let isSupervised: Bool
        let installedApps: [String]
    }

    /// The enrolled devices among `ids` (every enrolled device for nil), a thousand ids a query;
    /// a device leaving management (`MDMRelease`) is no longer brought in line.
    private static func enrolledDevices(_ ids: [RecordID<DeviceRecord>]?, connection: Connection) throws -> [DeviceFacts] {
        guard let ids else {
            return try connection.fetch(DeviceFacts.self, """
                SELECT d.id, d.groupID, d.isSupervised, d.installedApps FROM devices d JOIN mdm_devices m ON m.deviceID = d.id
                WHERE m.state = 'enrolled' AND m.releaseRequestedAt IS NULL
                """)
        }
        var found: [DeviceFacts] = []
        for start in stride(from: 0, to: ids.count, by: 1_000) {
            let chunk = Array(ids[start..<min(start + 1_000, ids.count)])
            found += try connection.fetch(DeviceFacts.self, """
                SELECT d.id, d.groupID, d.isSupervised, d.installedApps FROM devices d JOIN mdm_devices m ON m.deviceID = d.id
                WHERE m.state = 'enrolled' AND m.releaseRequestedAt IS NULL AND d.id IN (\(list: chunk))
                """)
        }
        return found
    }

    /// Works out targets, remembering each group's policy and each kind of device's profiles.
    private struct Planner {
        let loader: PolicyLoader
        let organization: String
        let deliveries: [String: AppDelivery]
        var groups: [DeviceGroupRecord]?
        var policies: [RecordID<DeviceGroupRecord>?: EffectivePolicy] = [:]
        var planned: [Kind: [Planned]] = [:]
        var documents: [String: Document] = [:]

        init(loader: PolicyLoader, organization: String, deliveries: [String: AppDelivery]) {
            self.loader = loader
            self.organization = organization
            self.deliveries = deliveries
        }

        /// Devices of one group differ only in what Single App Mode asks of them.
        struct Kind: Hashable {
            let group: RecordID<DeviceGroupRecord>?
            let isSupervised: Bool
            let hasLockedApp: Bool
            /// The installed apps the policy configures.
            let configuredApps: Set<String>
            /// The installed apps the policy requires.
            let requiredApps: Set<String>
        }

        mutating func targets(for device: DeviceFacts) throws -> [Planned] {
            let policy = try policy(device.groupID)
            let lockedApp = policy[SingleAppMode.self]?.value.appIdentifier
            let hasLockedApp = lockedApp.map(device.installedApps.contains) ?? false
            let configuredApps = DeviceAppConfigurations.configuredApps(policy).intersection(device.installedApps)
            let requiredApps = Set(DeviceAppInstalls.requiredApps(policy)).intersection(device.installedApps)
            let kind = Kind(group: device.groupID, isSupervised: device.isSupervised, hasLockedApp: hasLockedApp, configuredApps: configuredApps,
                            requiredApps: requiredApps)
            if let known = planned[kind] { return known }
            let facts = DevicePolicyProfiles.Device(isSupervised: device.isSupervised, installedApps: hasLockedApp ? Set(lockedApp.map { [$0] } ?? []) : [],
                                                    deliverableApps: Set(deliveries.keys))
            let targets = DevicePolicyProfiles.targets(for: policy, device: facts, organization: organization, stableUUID: MDMPolicyPlan.stableUUID)
                .map { identifier, target in plan(identifier, target) }
                + DeviceAppConfigurations.configurations(for: policy, installedApps: configuredApps).map { plan(app: $0.app, $0.configuration) }
                + DeviceAppInstalls.targets(for: policy, deliveries: deliveries).compactMap { app, target in
                    plan(install: app, target, installed: requiredApps.contains(app))
                }
            planned[kind] = targets
            return targets
        }

        private mutating func plan(_ identifier: String, _ target: DevicePolicyProfiles.Target) -> Planned {
            switch target {
            case .unchanged(let reason):
                return Planned(identifier: identifier, digest: nil, keep: true, reason: reason, displayName: nil)
            case .absent(let reason):
                return Planned(identifier: identifier, digest: nil, keep: false, reason: reason, displayName: nil)
            case .carry(var input):
                // Named by its settings (`DevicePolicyProfiles.identity`); its own UUID is then made
                // from that name, so the same settings always make the same profile.
                let digest = SHA256Digest.hex(of: Array(DevicePolicyProfiles.identity(of: input).utf8))
                input.uuid = MDMPolicyPlan.stableUUID(digest)
                documents[digest] = Document(identifier: identifier, displayName: input.displayName, xml: Array(MobileConfig.xml(for: input).utf8), signs: true)
                return Planned(identifier: identifier, digest: digest, keep: false, reason: nil, displayName: input.displayName)
            }
        }

        /// An app's configuration: named by its app's slot and its content, so two apps with the
        /// same dictionary are still two documents.
        private mutating func plan(app: String, _ configuration: PropertyList) -> Planned {
            let identifier = DeviceAppConfigurations.identifier(of: app)
            let xml = Array(configuration.xmlDocument().utf8)
            let digest = SHA256Digest.hex(of: Array(identifier.utf8) + [0] + xml)
            let name = "Configuration of \(app)"
            documents[digest] = Document(identifier: identifier, displayName: name, xml: xml, signs: false)
            return Planned(identifier: identifier, digest: digest, keep: false, reason: nil, displayName: name)
        }

        /// An app the policy needs: its install, named by its slot and the catalog's keys; or,
        /// when the console cannot install it, held back saying why (nothing, when the device
        /// has it anyway).
        private mutating func plan(install app: String, _ target: DeviceAppInstalls.Target, installed: Bool) -> Planned? {
            let identifier = DeviceAppInstalls.identifier(of: app)
            switch target {
            case .undeliverable(let reason):
                return installed ? nil : Planned(identifier: identifier, digest: nil, keep: true, reason: reason, displayName: nil)
            case .install(let delivery):
                let xml = Array(PropertyList.dictionary(delivery.installKeys(bundleID: app)).xmlDocument().utf8)
                let digest = SHA256Digest.hex(of: Array(identifier.utf8) + [0] + xml)
                let name = "App \(app)"
                documents[digest] = Document(identifier: identifier, displayName: name, xml: xml, signs: false)
                return Planned(identifier: identifier, digest: digest, keep: false, reason: nil, displayName: name)
            }
        }

        private mutating func policy(_ group: RecordID<DeviceGroupRecord>?) throws -> EffectivePolicy {
            if let known = policies[group] { return known }
            let policy: EffectivePolicy
            if let group {
                if groups == nil { groups = try loader.groups() }
                policy = EffectivePolicy.compute(from: try loader.reachingProfiles(group: group, groups: groups ?? []))
            } else {
                policy = EffectivePolicy.compute(from: [])
            }
            policies[group] = policy
            return policy
        }
    }

    /// A UUID made from a name, the same every time: payloads keep theirs across versions so
    /// the device updates them in place.
    static func stableUUID(_ name: String) -> String {
        let hex = Array(SHA256Digest.hex(of: Array(name.utf8)).uppercased())
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(hex[$0]) }.joined(separator: "-")
    }
}
