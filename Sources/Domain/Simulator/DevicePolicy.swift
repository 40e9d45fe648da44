/// The policy a device applies: the effective policy's values without their sources, in the
/// form the check-in API sends and the simulator obeys.
///
/// A conflict (two Single App Mode apps) is not a policy: the device keeps the one it had, so
/// `init?(_:)` answers nil for it and the caller keeps the previous `DevicePolicy`.
///
/// Stored as JSON (in the simulated device's state) with each kind under its `policyKey`, in
/// the shape its settings type holds it.
public struct DevicePolicy: Codable, Equatable, Sendable {
    /// The policy as payloads, in the registry's order (the order the device page lists them):
    /// what the check-in API sends with Apple's and the SDK's key names.
    public private(set) var payloads: [Payload]

    /// A policy of these settings (nil ones left out), kept in the registry's order.
    public init(_ settings: (any PayloadSettings)?...) {
        self.init(payloads: settings.compactMap { $0.map(Payload.init(_:)) })
    }

    public init(payloads: [Payload]) {
        self.payloads = payloads.enumerated()
            .sorted { (PayloadRegistry.order(of: $0.element.kind), $0.offset) < (PayloadRegistry.order(of: $1.element.kind), $1.offset) }
            .map(\.element)
    }

    /// Nothing applies: a device in no group, or whose groups have no profiles.
    public static let empty = DevicePolicy()

    public init?(_ policy: EffectivePolicy) {
        guard !policy.hasConflict else { return nil }
        self.init(payloads: policy.settings.map(\.payload))
    }

    /// The setting of one kind the device holds (the first, for a kind held per app).
    public subscript<Settings: PayloadSettings>(_ type: Settings.Type) -> Settings? {
        payloads.lazy.compactMap { $0.settings(as: type) }.first
    }

    /// Every setting of one kind the device holds (one per app for managed app configuration).
    public func all<Settings: PayloadSettings>(_ type: Settings.Type) -> [Settings] {
        payloads.compactMap { $0.settings(as: type) }
    }

    /// The configuration the policy holds for `app`. What the app actually receives (managed
    /// apps only) is `SimulatedDevice.deliveredConfiguration(for:)`.
    public func configuration(for app: String) -> ManagedAppConfiguration? {
        all(ManagedAppConfiguration.self).first { $0.appIdentifier == app }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: PolicyKey.self)
        var payloads: [Payload] = []
        for type in PayloadRegistry.types { payloads += try Self.decodeHeld(type, from: container) }
        self.payloads = payloads
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: PolicyKey.self)
        for type in PayloadRegistry.types { try encodeHeld(type, to: &container) }
    }

    private static func decodeHeld<Settings: PayloadSettings>(_ type: Settings.Type, from container: KeyedDecodingContainer<PolicyKey>) throws -> [Payload] {
        try Settings.decodeHeld(from: container).map(Payload.init(_:))
    }

    private func encodeHeld<Settings: PayloadSettings>(_ type: Settings.Type, to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try Settings.encodeHeld(all(type), to: &container)
    }
}
