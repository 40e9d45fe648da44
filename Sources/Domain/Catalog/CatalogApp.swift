/// An app the organisation deploys or knows of: what payload forms offer in their bundle-ID
/// lists, and what a simulated device can have installed.
public struct CatalogAppDraft: Equatable, Sendable {
    public var name: String
    public var bundleID: String
    /// Installed by the management server, so "managed open in" and app configuration apply.
    public var isManaged: Bool
    /// Built with the console's SDK, so SDK payloads (DLP, geofence, branding…) reach it.
    public var isSDKBuilt: Bool
    /// Holds `com.apple.developer.edu-assessment-mode`, so it may lock the device with AAC.
    public var hasAssessmentEntitlement: Bool
    /// `#rrggbb` for the simulator's home-screen icon, or empty for a colour derived from the name.
    public var iconColor: String
    /// The organisation's managed browser or mail app, where DLP keeps links; nil for others.
    public var role: AppRole?

    public init(name: String, bundleID: String, isManaged: Bool = true, isSDKBuilt: Bool = false,
                hasAssessmentEntitlement: Bool = false, iconColor: String = "", role: AppRole? = nil) {
        self.name = name
        self.bundleID = bundleID
        self.isManaged = isManaged
        self.isSDKBuilt = isSDKBuilt
        self.hasAssessmentEntitlement = hasAssessmentEntitlement
        self.iconColor = iconColor
        self.role = role
    }

    /// Trims the text fields; bundle IDs keep their case because iOS compares them exactly.
    public var normalised: CatalogAppDraft {
        var copy = self
        copy.name = name.trimmingWhitespace()
        copy.bundleID = bundleID.trimmingWhitespace()
        copy.iconColor = iconColor.trimmingWhitespace().lowercased()
        return copy
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        let app = normalised
        if app.name.isEmpty {
            errors["name"] = "Enter the app’s name as people know it."
        } else if app.name.count > 80 {
            errors["name"] = "Keep the name to 80 characters or fewer."
        } else if let problem = PlainText.problem(app.name) {
            errors["name"] = problem
        }
        if let problem = BundleID.problem(app.bundleID) { errors["bundleID"] = problem }
        if let role, !isManaged {
            errors["role"] = "\(role.displayName) is installed by the console: tick Managed, or choose no role."
        }
        if !app.iconColor.isEmpty && !Self.isHexColor(app.iconColor) {
            errors["iconColor"] = "Enter a colour like #1e88e5, or leave it empty."
        }
        return errors
    }

    static func isHexColor(_ text: String) -> Bool {
        text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
