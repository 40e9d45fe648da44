/// A queued command as Apple's MDM client reads it: `{CommandUUID, Command: {RequestType, …}}`,
/// each request type with the keys and types Apple's schema gives it.
public enum MDMCommandPlist {
    /// What only the console knows at the moment it sends a command: the signed profile to
    /// install, the unlock token the device gave, each managed app's configuration, and the
    /// managed apps a feedback request without a list asks about.
    public struct Materials: Sendable {
        public var profile: [UInt8]?
        public var profileIdentifier: String?
        public var unlockToken: [UInt8]?
        /// Each app's configuration; nil removes the app's configuration.
        public var appConfigurations: [(bundleID: String, configuration: PropertyList?)] = []
        public var managedApps: [String] = []
        /// An app install's keys as the catalog said when it was planned, and the managed
        /// configuration the policy gives the app now (nil: none).
        public var application: [(String, PropertyList)] = []
        public var applicationConfiguration: PropertyList?

        public init() {}
    }

    /// Why a command cannot be sent over MDM as it stands.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Only the console's SDK runs it.
        case notAnMDMCommand(DeviceCommand.RequestType)
        /// Something the command needs is not there, in words.
        case missing(String)

        public var description: String {
            switch self {
            case .notAnMDMCommand(let type): "\(type.rawValue) is the console's SDK command; Apple's MDM client does not run it."
            case .missing(let what): what
            }
        }
    }

    /// What the device information command asks: what the device page shows of a real device.
    public static let informationQueries = [
        "UDID", "DeviceName", "OSVersion", "BuildVersion", "ModelName", "Model", "ProductName", "SerialNumber", "IMEI", "MEID",
        "DeviceCapacity", "AvailableDeviceCapacity", "BatteryLevel", "IsSupervised", "IsDeviceLocatorServiceEnabled",
        "IsActivationLockEnabled", "IsMDMLostModeEnabled", "IsCloudBackupEnabled", "WiFiMAC", "BluetoothMAC", "TimeZone",
    ]

    public static func envelope(uuid: String, command: DeviceCommand, materials: Materials) throws(Refusal) -> PropertyList {
        .dictionary([("CommandUUID", .string(uuid)),
                     ("Command", .dictionary([("RequestType", .string(command.requestType.rawValue))] + (try keys(of: command, materials))))])
    }

    private static func keys(of command: DeviceCommand, _ materials: Materials) throws(Refusal) -> [(String, PropertyList)] {
        let parameters = command.parameters
        switch command.requestType {
        case .requestLogs, .clearGuidedAccessPasscode:
            throw .notAnMDMCommand(command.requestType)
        case .deviceInformation:
            return [("Queries", .array(informationQueries.map(PropertyList.string)))]
        case .securityInfo, .installedApplicationList, .profileList, .restartDevice, .shutDownDevice, .disableLostMode, .deviceLocation, .eraseDevice:
            return []
        case .deviceLock:
            return texts([("Message", parameters.message), ("PhoneNumber", parameters.phoneNumber)])
        case .enableLostMode:
            let shown = texts([("Message", parameters.message), ("PhoneNumber", parameters.phoneNumber), ("Footnote", parameters.footnote)])
            guard shown.contains(where: { $0.0 != "Footnote" }) else { throw .missing("Lost Mode shows a message or a phone number; give at least one.") }
            return shown
        case .clearPasscode:
            guard let token = materials.unlockToken, !token.isEmpty else {
                throw .missing("The device has not given an unlock token, so its passcode cannot be cleared.")
            }
            return [("UnlockToken", .data(token))]
        case .managedApplicationFeedback:
            return [("Identifiers", try identifiers(parameters.apps, materials)), ("DeleteFeedback", .boolean(parameters.deleteFeedback))]
        case .managedApplicationConfiguration:
            return [("Identifiers", try identifiers(parameters.apps, materials))]
        case .settings:
            guard !materials.appConfigurations.isEmpty else { throw .missing("No managed app on the device has a configuration to send.") }
            return [("Settings", .array(materials.appConfigurations.map { app in
                .dictionary([("Item", .string("ApplicationConfiguration")), ("Identifier", .string(app.bundleID))]
                    + (app.configuration.map { [("Configuration", $0)] } ?? []))
            }))]
        case .installProfile:
            guard let profile = materials.profile, !profile.isEmpty else { throw .missing("There is no profile to install.") }
            return [("Payload", .data(profile))]
        case .installApplication:
            guard !materials.application.isEmpty else { throw .missing("There is no app to install.") }
            return materials.application + (materials.applicationConfiguration.map { [("Configuration", $0)] } ?? [])
        case .removeApplication:
            guard let app = parameters.apps.first, !app.isEmpty else { throw .missing("There is no app to remove.") }
            return [("Identifier", .string(app))]
        case .removeProfile:
            guard let identifier = materials.profileIdentifier, !identifier.isEmpty else { throw .missing("There is no profile identifier to remove.") }
            return [("Identifier", .string(identifier))]
        }
    }

    private static func texts(_ pairs: [(String, String?)]) -> [(String, PropertyList)] {
        pairs.compactMap { key, text in text.flatMap { $0.isEmpty ? nil : (key, .string($0)) } }
    }

    /// The apps named, or every managed app when none are.
    private static func identifiers(_ apps: [String], _ materials: Materials) throws(Refusal) -> PropertyList {
        let chosen = apps.isEmpty ? materials.managedApps : apps
        guard !chosen.isEmpty else { throw .missing("No managed app is installed on the device to ask about.") }
        return .array(chosen.map(PropertyList.string))
    }
}
