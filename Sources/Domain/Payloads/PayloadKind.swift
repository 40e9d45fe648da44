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
        }
    }

    /// Apple payloads go into the `.mobileconfig` under Apple's own payload types; the others
    /// are the SDK's, inside the SDK profile.
    public var isApplePayload: Bool {
        switch self {
        case .singleAppMode, .asamAllowlist: true
        case .dlp, .geofence, .logging, .branding, .authentication, .managedAppConfig: false
        }
    }
}
