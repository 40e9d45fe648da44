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
    /// How a real device gets the app over MDM; nil: the console never installs it.
    public var deliveryMethod: AppDeliveryMethod?
    /// The App Store ID as typed (digits), for the App Store method only.
    public var storeID: String
    /// The in-house app's manifest address, for that method only.
    public var manifestURL: String
    public var removeWithManagement: Bool
    public var preventBackup: Bool

    public init(name: String, bundleID: String, isManaged: Bool = true, isSDKBuilt: Bool = false,
                hasAssessmentEntitlement: Bool = false, iconColor: String = "", role: AppRole? = nil,
                deliveryMethod: AppDeliveryMethod? = nil, storeID: String = "", manifestURL: String = "",
                removeWithManagement: Bool = false, preventBackup: Bool = false) {
        self.name = name
        self.bundleID = bundleID
        self.isManaged = isManaged
        self.isSDKBuilt = isSDKBuilt
        self.hasAssessmentEntitlement = hasAssessmentEntitlement
        self.iconColor = iconColor
        self.role = role
        self.deliveryMethod = deliveryMethod
        self.storeID = storeID
        self.manifestURL = manifestURL
        self.removeWithManagement = removeWithManagement
        self.preventBackup = preventBackup
    }

    /// The delivery the draft describes, once valid; nil for an app the console does not install.
    public var delivery: AppDelivery? {
        let app = normalised
        return app.deliveryMethod.map {
            AppDelivery(method: $0, storeID: Int(app.storeID), manifestURL: app.manifestURL.isEmpty ? nil : app.manifestURL,
                        removeWithManagement: app.removeWithManagement, preventBackup: app.preventBackup)
        }
    }

    /// Trims the text fields; bundle IDs keep their case because iOS compares them exactly.
    public var normalised: CatalogAppDraft {
        var copy = self
        copy.name = name.trimmingWhitespace()
        copy.bundleID = bundleID.trimmingWhitespace()
        copy.iconColor = iconColor.trimmingWhitespace().lowercased()
        copy.storeID = storeID.trimmingWhitespace()
        copy.manifestURL = manifestURL.trimmingWhitespace()
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
        validateDelivery(app, into: &errors)
        return errors
    }

    /// Each method reads its own value and refuses the other's, so a store ID left from an
    /// earlier choice is not kept unseen; an app the console installs is managed.
    private func validateDelivery(_ app: CatalogAppDraft, into errors: inout ValidationErrors) {
        if app.deliveryMethod == .appStore {
            if let problem = AppDelivery.storeIDProblem(app.storeID) { errors["storeID"] = problem }
        } else if !app.storeID.isEmpty {
            errors["storeID"] = "Only an App Store app has an App Store ID: clear it, or choose App Store."
        }
        if app.deliveryMethod == .inHouse {
            if let problem = AppDelivery.manifestURLProblem(app.manifestURL) { errors["manifestURL"] = problem }
        } else if !app.manifestURL.isEmpty {
            errors["manifestURL"] = "Only an in-house app has a manifest address: clear it, or choose In-house."
        }
        if app.deliveryMethod != nil && !app.isManaged {
            errors["deliveryMethod"] = "An app the console installs is managed: tick Managed, or choose not to install it."
        } else if app.deliveryMethod == nil && (app.removeWithManagement || app.preventBackup) {
            errors["deliveryMethod"] = "What happens to the app’s data applies to apps the console installs: choose how devices get it."
        }
    }

    static func isHexColor(_ text: String) -> Bool {
        text.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy { $0.isASCII && $0.isHexDigit }
    }
}
