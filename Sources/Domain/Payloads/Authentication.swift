/// How users unlock SDK apps.
public enum AuthenticationType: String, CaseIterable, Codable, Sendable {
    case passcode
    case usernamePassword
    case disabled

    public var displayName: String {
        switch self {
        case .passcode: "Passcode"
        case .usernamePassword: "Username and password"
        case .disabled: "Disabled"
        }
    }

    /// The value in the SDK profile.
    public var sdkValue: String {
        switch self {
        case .passcode: "Passcode"
        case .usernamePassword: "UsernamePassword"
        case .disabled: "Disabled"
        }
    }
}

/// Authentication for SDK apps, single sign-on, and offline access.
public struct Authentication: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("authentication", displayName: "Authentication",
                                         summary: "Sets how users unlock SDK apps, single sign-on and offline access.",
                                         combination: .nearestGroup, settings: Authentication.self)
    public static let offlineMinutesRange = 1...43_200

    public var type: AuthenticationType
    public var singleSignOn: Bool
    public var offlineAccessEnabled: Bool
    public var maximumOfflineMinutes: Int

    public init(type: AuthenticationType = .passcode, singleSignOn: Bool = false, offlineAccessEnabled: Bool = false,
                maximumOfflineMinutes: Int = 1440) {
        self.type = type
        self.singleSignOn = singleSignOn
        self.offlineAccessEnabled = offlineAccessEnabled
        self.maximumOfflineMinutes = maximumOfflineMinutes
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if offlineAccessEnabled && !Self.offlineMinutesRange.contains(maximumOfflineMinutes) {
            errors["maximumOffline"] = "Allow from 1 minute to 43,200 minutes (30 days) offline."
        }
        return errors
    }
}

extension Authentication {
    /// Sentences for the form when a combination does nothing or surprises; empty when none
    /// does. Offline access holds whatever the type, which an admin choosing
    /// Disabled may not expect; and with Disabled no app asks for a sign-in, so single sign-on
    /// has no session to share.
    public var warnings: [String] {
        guard type == .disabled else { return [] }
        var warnings: [String] = []
        if singleSignOn {
            warnings.append("Single sign-on does nothing while authentication is Disabled: no SDK app asks for a sign-in, so there is no session to share.")
        }
        if offlineAccessEnabled {
            let allowance = maximumOfflineMinutes == 1 ? "1 minute" : "\(maximumOfflineMinutes) minutes"
            warnings.append("Authentication is Disabled, yet after \(allowance) offline SDK apps show a blocker until the device is back online.")
        } else {
            warnings.append("Authentication is Disabled, yet with offline access off SDK apps do not open without a network.")
        }
        return warnings
    }
}

extension AuthenticationType {
    /// How strongly SDK apps' data is encrypted under this type: encryption has no setting of
    /// its own, and its key follows authentication (derived from what the user enters and held
    /// in memory, or, with authentication Disabled, random and stored on the device).
    public var encryptionNote: String {
        switch self {
        case .passcode, .usernamePassword:
            "The key that protects SDK apps' data is derived from what the user enters (\(displayName.lowercased())) and kept only in memory."
        case .disabled:
            "Authentication is Disabled, so the key that protects SDK apps' data is random and stored on the device: weaker than with a passcode."
        }
    }
}

extension PayloadKind {
    public static var authentication: PayloadKind { Authentication.kind }
}

extension Authentication: SDKPayloadSettings {
    public static let sdkKey = "Authentication"

    public var sdkEntry: PropertyList {
        .dictionary([
            ("AuthenticationType", .string(type.sdkValue)), ("SingleSignOn", .boolean(singleSignOn)),
            ("OfflineAccess", .dictionary([("Enabled", .boolean(offlineAccessEnabled)),
                                           ("MaximumOfflineMinutes", .integer(maximumOfflineMinutes))])),
        ])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        let offline = try entry.dictionary("OfflineAccess")
        self.init(type: try entry.choice("AuthenticationType", \AuthenticationType.sdkValue), singleSignOn: try entry.bool("SingleSignOn"),
                  offlineAccessEnabled: try offline.bool("Enabled"), maximumOfflineMinutes: Int(try offline.number("MaximumOfflineMinutes")))
    }
}
