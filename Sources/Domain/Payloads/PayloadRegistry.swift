/// The one list of payload kinds. Everything else — stored JSON, the API's payload types,
/// exports and imports, the effective and device policy, pages, forms and help — finds a
/// kind's facts through its settings type, so a new kind is its own files and a line here.
public enum PayloadRegistry {
    /// Every kind's settings type, in the order pages list them and profiles keep them.
    public static let types: [any PayloadSettings.Type] = [
        SingleAppMode.self,
        ASAMAllowlist.self,
        RequiredApps.self,
        DataLossPrevention.self,
        Geofence.self,
        Logging.self,
        Branding.self,
        Authentication.self,
        ManagedAppConfiguration.self,
        CustomSettings.self,
        Compliance.self,
        CompromisedProtection.self,
        CertificatePinning.self,
        AppTunnel.self,
        IntegratedAuthentication.self,
        Analytics.self,
    ]

    public static let kinds: [PayloadKind] = types.map { $0.kind }

    private static let byName: [String: PayloadKind] = Dictionary(kinds.map { ($0.rawValue, $0) }, uniquingKeysWith: { first, _ in first })

    /// The SDK kinds by the key of their entry in the SDK profile.
    static let sdkTypes: [String: any SDKPayloadSettings.Type] = Dictionary(
        types.compactMap { $0 as? any SDKPayloadSettings.Type }.map { ($0.sdkKey, $0) }, uniquingKeysWith: { first, _ in first })

    static func kind(named name: String) -> PayloadKind? { byName[name] }

    /// The position of `kind` in the registry, for keeping payloads in its order.
    static func order(of kind: PayloadKind) -> Int {
        kinds.firstIndex(of: kind) ?? kinds.count
    }
}
