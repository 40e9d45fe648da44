/// The policy a device applies: the effective policy's values without their sources, in the
/// form the check-in API sends and the simulator obeys.
///
/// A conflict (two Single App Mode apps) is not a policy: the device keeps the one it had, so
/// `init?(_:)` answers nil for it and the caller keeps the previous `DevicePolicy`.
public struct DevicePolicy: Codable, Equatable, Sendable {
    public var singleAppMode: SingleAppMode?
    public var asamAllowlist: [String]?
    public var dlp: DataLossPrevention?
    public var geofence: [Geofence.Area]?
    public var logging: Logging?
    public var branding: Branding?
    public var authentication: Authentication?
    public var appConfigurations: [ManagedAppConfiguration]

    public init(singleAppMode: SingleAppMode? = nil, asamAllowlist: [String]? = nil, dlp: DataLossPrevention? = nil,
                geofence: [Geofence.Area]? = nil, logging: Logging? = nil, branding: Branding? = nil,
                authentication: Authentication? = nil, appConfigurations: [ManagedAppConfiguration] = []) {
        self.singleAppMode = singleAppMode
        self.asamAllowlist = asamAllowlist
        self.dlp = dlp
        self.geofence = geofence
        self.logging = logging
        self.branding = branding
        self.authentication = authentication
        self.appConfigurations = appConfigurations
    }

    /// Nothing applies: a device in no group, or whose groups have no profiles.
    public static let empty = DevicePolicy()

    public init?(_ policy: EffectivePolicy) {
        guard !policy.hasConflict else { return nil }
        self.init(
            singleAppMode: policy.singleAppMode?.value, asamAllowlist: policy.asamAllowlist?.value, dlp: policy.dlp?.value,
            geofence: policy.geofence?.value, logging: policy.logging?.value, branding: policy.branding?.value,
            authentication: policy.authentication?.value, appConfigurations: policy.appConfigurations.map(\.value))
    }

    /// The configuration the policy holds for `app`. What the app actually receives (managed
    /// apps only) is `SimulatedDevice.deliveredConfiguration(for:)`.
    public func configuration(for app: String) -> ManagedAppConfiguration? {
        appConfigurations.first { $0.appIdentifier == app }
    }
}

extension DevicePolicy {
    /// The policy as payloads, in the order the device page lists them: what the check-in
    /// API sends with Apple's and the SDK's key names.
    public var payloads: [Payload] {
        var payloads: [Payload] = []
        if let singleAppMode { payloads.append(.singleAppMode(singleAppMode)) }
        if let asamAllowlist { payloads.append(.asamAllowlist(ASAMAllowlist(appIdentifiers: asamAllowlist))) }
        if let dlp { payloads.append(.dlp(dlp)) }
        if let geofence { payloads.append(.geofence(Geofence(areas: geofence))) }
        if let logging { payloads.append(.logging(logging)) }
        if let branding { payloads.append(.branding(branding)) }
        if let authentication { payloads.append(.authentication(authentication)) }
        payloads += appConfigurations.map(Payload.managedAppConfig)
        return payloads
    }
}
