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
    public var customSettings: CustomSettings?
    public var compliance: [ComplianceRule]?
    public var compromisedProtection: CompromisedProtection?
    public var certificatePinning: CertificatePinning?
    public var appTunnel: AppTunnel?
    public var integratedAuthentication: IntegratedAuthentication?
    public var analytics: Analytics?

    public init(singleAppMode: SingleAppMode? = nil, asamAllowlist: [String]? = nil, dlp: DataLossPrevention? = nil,
                geofence: [Geofence.Area]? = nil, logging: Logging? = nil, branding: Branding? = nil,
                authentication: Authentication? = nil, appConfigurations: [ManagedAppConfiguration] = [],
                customSettings: CustomSettings? = nil, compliance: [ComplianceRule]? = nil,
                compromisedProtection: CompromisedProtection? = nil, certificatePinning: CertificatePinning? = nil, appTunnel: AppTunnel? = nil,
                integratedAuthentication: IntegratedAuthentication? = nil, analytics: Analytics? = nil) {
        self.singleAppMode = singleAppMode
        self.asamAllowlist = asamAllowlist
        self.dlp = dlp
        self.geofence = geofence
        self.logging = logging
        self.branding = branding
        self.authentication = authentication
        self.appConfigurations = appConfigurations
        self.customSettings = customSettings
        self.compliance = compliance
        self.compromisedProtection = compromisedProtection
        self.certificatePinning = certificatePinning
        self.appTunnel = appTunnel
        self.integratedAuthentication = integratedAuthentication
        self.analytics = analytics
    }

    /// Nothing applies: a device in no group, or whose groups have no profiles.
    public static let empty = DevicePolicy()

    public init?(_ policy: EffectivePolicy) {
        guard !policy.hasConflict else { return nil }
        self.init()
        for setting in policy.settings { apply(setting.payload) }
    }

    /// Takes one effective payload; every kind is handled here or this does not compile.
    private mutating func apply(_ payload: Payload) {
        switch payload {
        case .singleAppMode(let lock): singleAppMode = lock
        case .asamAllowlist(let list): asamAllowlist = list.appIdentifiers
        case .dlp(let value): dlp = value
        case .geofence(let fence): geofence = fence.areas
        case .logging(let value): logging = value
        case .branding(let value): branding = value
        case .authentication(let value): authentication = value
        case .managedAppConfig(let config): appConfigurations.append(config)
        case .customSettings(let value): customSettings = value
        case .compliance(let value): compliance = value.rules
        case .compromisedProtection(let value): compromisedProtection = value
        case .certificatePinning(let value): certificatePinning = value
        case .appTunnel(let value): appTunnel = value
        case .integratedAuthentication(let value): integratedAuthentication = value
        case .analytics(let value): analytics = value
        }
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
        PayloadKind.allCases.flatMap { kind -> [Payload] in
            switch kind {
            case .singleAppMode: singleAppMode.map { [.singleAppMode($0)] } ?? []
            case .asamAllowlist: asamAllowlist.map { [.asamAllowlist(ASAMAllowlist(appIdentifiers: $0))] } ?? []
            case .dlp: dlp.map { [.dlp($0)] } ?? []
            case .geofence: geofence.map { [.geofence(Geofence(areas: $0))] } ?? []
            case .logging: logging.map { [.logging($0)] } ?? []
            case .branding: branding.map { [.branding($0)] } ?? []
            case .authentication: authentication.map { [.authentication($0)] } ?? []
            case .managedAppConfig: appConfigurations.map(Payload.managedAppConfig)
            case .customSettings: customSettings.map { [.customSettings($0)] } ?? []
            case .compliance: compliance.map { [.compliance(Compliance(rules: $0))] } ?? []
            case .compromisedProtection: compromisedProtection.map { [.compromisedProtection($0)] } ?? []
            case .certificatePinning: certificatePinning.map { [.certificatePinning($0)] } ?? []
            case .appTunnel: appTunnel.map { [.appTunnel($0)] } ?? []
            case .integratedAuthentication: integratedAuthentication.map { [.integratedAuthentication($0)] } ?? []
            case .analytics: analytics.map { [.analytics($0)] } ?? []
            }
        }
    }
}
