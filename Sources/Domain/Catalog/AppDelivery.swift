/// How a real device gets an app from the console over MDM (`InstallApplication`): from the
/// App Store by its store ID, as an in-house app from the manifest its build publishes, or, for
/// an app already on the device, by taking over its management. An app without a delivery is
/// never installed by the console; a policy that needs it (Single App Mode's app) says so.
public enum AppDeliveryMethod: String, CaseIterable, Codable, Sendable {
    case appStore
    case inHouse
    case takeOver

    public var displayName: String {
        switch self {
        case .appStore: "App Store"
        case .inHouse: "In-house app (manifest URL)"
        case .takeOver: "Already on the device: take over management"
        }
    }
}

/// An app's delivery with the values its method reads, and what the device does with the app
/// when its management ends (`ManagementFlags`).
public struct AppDelivery: Equatable, Sendable {
    public var method: AppDeliveryMethod
    /// The App Store's numeric ID of the app (its `iTunesStoreID`), for `.appStore`.
    public var storeID: Int?
    /// An `https://` address of the app's manifest plist, for `.inHouse`.
    public var manifestURL: String?
    /// The app and its data go when the device leaves management (flag 1).
    public var removeWithManagement: Bool
    /// The app's data stays out of the device's backups (flag 4).
    public var preventBackup: Bool

    public init(method: AppDeliveryMethod, storeID: Int? = nil, manifestURL: String? = nil,
                removeWithManagement: Bool = false, preventBackup: Bool = false) {
        self.method = method
        self.storeID = storeID
        self.manifestURL = manifestURL
        self.removeWithManagement = removeWithManagement
        self.preventBackup = preventBackup
    }

    /// Apple's `ManagementFlags`: 1, 4, both (5), or none (the key is left out).
    public var managementFlags: Int {
        (removeWithManagement ? 1 : 0) + (preventBackup ? 4 : 0)
    }

    /// The keys of `InstallApplication` that say which app and how to keep it; the app's
    /// managed configuration is added when the command is sent.
    public func installKeys(bundleID: String) -> [(String, PropertyList)] {
        var keys: [(String, PropertyList)]
        switch method {
        case .appStore: keys = [("iTunesStoreID", .integer(storeID ?? 0))]
        case .inHouse: keys = [("ManifestURL", .string(manifestURL ?? ""))]
        case .takeOver: keys = [("Identifier", .string(bundleID)), ("ChangeManagementState", .string("Managed"))]
        }
        if managementFlags != 0 { keys.append(("ManagementFlags", .integer(managementFlags))) }
        return keys
    }

    /// The largest App Store ID: ten digits.
    public static let largestStoreID = 9_999_999_999
    public static let manifestURLMaximumLength = 2_000

    /// What is wrong with a typed store ID; nil for a whole number from 1 to ten digits.
    public static func storeIDProblem(_ text: String) -> String? {
        if text.isEmpty { return "Enter the app’s App Store ID: the digits after “id” in its App Store address." }
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let id = Int(text), (1...largestStoreID).contains(id) else {
            return "An App Store ID is a whole number of up to ten digits, such as 1234567890."
        }
        return nil
    }

    /// What is wrong with a manifest address; nil for an `https://` address with a host.
    /// Apple fetches the manifest and the app over HTTPS only.
    public static func manifestURLProblem(_ text: String) -> String? {
        if text.isEmpty { return "Enter the https:// address of the app’s manifest (its .plist)." }
        if text.count > manifestURLMaximumLength { return "A manifest address has at most \(manifestURLMaximumLength) characters." }
        guard text.lowercased().hasPrefix("https://") else { return "Devices fetch in-house apps over HTTPS only: the address starts with https://." }
        guard !text.contains(where: { $0.isWhitespace || ($0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false) }) else {
            return "A web address has no spaces or control characters."
        }
        let rest = text.dropFirst("https://".count)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last.map { $0.split(separator: ":", maxSplits: 1).first.map(String.init) ?? "" } ?? ""
        if authority.contains("@") { return "The address names a host only, without a user name or password." }
        if let problem = HostName.problem(host) { return problem }
        return nil
    }
}
