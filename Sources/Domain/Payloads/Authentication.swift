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
    public static let kind = PayloadKind.authentication
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
