/// The kinds of payload a profile can carry; a profile holds at most one of each.
public enum PayloadKind: String, CaseIterable, Codable, Sendable {
    case singleAppMode = "single-app-mode"
    case asamAllowlist = "asam-allowlist"
    case dlp
    case geofence
    case logging
    case branding
    case authentication
    case managedAppConfig = "managed-app-config"
    case customSettings = "custom-settings"
    case compliance
    case compromisedProtection = "compromised-protection"
    case certificatePinning = "certificate-pinning"
    case appTunnel = "app-tunnel"
    case integratedAuthentication = "integrated-authentication"
    case analytics

    public var displayName: String {
        switch self {
        case .singleAppMode: "Single App Mode"
        case .asamAllowlist: "ASAM allowlist"
        case .dlp: "Data loss prevention"
        case .geofence: "Geofence"
        case .logging: "Logging"
        case .branding: "Branding"
        case .authentication: "Authentication"
        case .managedAppConfig: "Managed app configuration"
        case .customSettings: "Custom settings"
        case .compliance: "Compliance"
        case .compromisedProtection: "Compromised protection"
        case .certificatePinning: "Certificate pinning"
        case .appTunnel: "App tunnel"
        case .integratedAuthentication: "Integrated authentication"
        case .analytics: "Analytics"
        }
    }

    public var summary: String {
        switch self {
        case .singleAppMode: "Locks a supervised device to one app until the payload is removed."
        case .asamAllowlist: "Lists the apps that may lock a supervised device to themselves (Autonomous Single App Mode)."
        case .dlp: "Controls copy and paste, keyboards, email and links in SDK apps."
        case .geofence: "Limits SDK apps to named areas such as offices, schools or stores."
        case .logging: "Sets which app log messages devices upload, and over which network."
        case .branding: "Gives SDK apps the organisation's colour and logos."
        case .authentication: "Sets how users unlock SDK apps, single sign-on and offline access."
        case .managedAppConfig: "Typed settings one managed app reads from com.apple.configuration.managed."
        case .customSettings: "Raw text (XML, JSON, key-value, CSV or plain) SDK apps receive as it is."
        case .compliance: "Blocks SDK apps, or wipes the managed apps, on devices with an app or iOS version out of line."
        case .compromisedProtection: "Blocks SDK apps, or wipes the managed apps, on a jailbroken device."
        case .certificatePinning: "SDK apps connect to the listed hosts only when the server presents a pinned public key."
        case .appTunnel: "Sends SDK apps' traffic through the organisation's tunnel, all of it or all but listed addresses."
        case .integratedAuthentication: "Lets SDK apps sign in to the allowed sites with the user's credentials or certificate."
        case .analytics: "Lets SDK apps send the analytics events their code records."
        }
    }

    /// Apple payloads go into the `.mobileconfig` under Apple's own payload types; the others
    /// are the SDK's, inside the SDK profile.
    public var isApplePayload: Bool {
        switch self {
        case .singleAppMode, .asamAllowlist: true
        case .dlp, .geofence, .logging, .branding, .authentication, .managedAppConfig, .customSettings, .compliance,
             .compromisedProtection, .certificatePinning, .appTunnel, .integratedAuthentication, .analytics: false
        }
    }
}
