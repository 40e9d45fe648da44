import Foundation

/// What a real device reported about itself through the inventory commands: the facts the
/// device page shows, each kept from the latest answer that carried it.
public struct MDMInventory: Codable, Equatable, Sendable {
    public var deviceName: String?
    public var osVersion: String?
    public var buildVersion: String?
    public var modelName: String?
    public var productName: String?
    public var serialNumber: String?
    public var isSupervised: Bool?
    public var capacityGB: Double?
    public var availableGB: Double?
    public var batteryLevel: Double?
    public var isLostModeEnabled: Bool?
    public var isActivationLockEnabled: Bool?
    public var passcodePresent: Bool?
    public var passcodeCompliant: Bool?
    public var hardwareEncryption: Int?
    public var apps: [App]?
    public var profiles: [Profile]?
    public var updatedAt: Date?

    public struct App: Codable, Equatable, Sendable {
        public let identifier: String
        public let name: String?
        public let version: String?
        /// Still downloading or installing; left out when not (and in answers kept before it was read).
        public var isInstalling: Bool? = nil
        /// The download failed; left out when not.
        public var hasFailedDownload: Bool? = nil

        public var installing: Bool { isInstalling == true }
        public var downloadFailed: Bool { hasFailedDownload == true }
        /// On the device and usable: what the console counts as installed.
        public var isInstalled: Bool { !installing && !downloadFailed }
    }

    public struct Profile: Codable, Equatable, Sendable {
        public let identifier: String
        public let displayName: String?
        public let isManaged: Bool
        /// Which version of the profile: a new version of a profile comes with a new UUID.
        public var uuid: String? = nil
    }

    public init() {}

    /// Takes what an acknowledged answer says; answers whether it was an inventory answer.
    @discardableResult
    public mutating func apply(_ type: DeviceCommand.RequestType, answer: PropertyList, at time: Date) -> Bool {
        switch type {
        case .deviceInformation:
            guard let responses = answer["QueryResponses"] else { return false }
            deviceName = responses["DeviceName"]?.text ?? deviceName
            osVersion = responses["OSVersion"]?.text ?? osVersion
            buildVersion = responses["BuildVersion"]?.text ?? buildVersion
            modelName = responses["ModelName"]?.text ?? modelName
            productName = responses["ProductName"]?.text ?? productName
            serialNumber = responses["SerialNumber"]?.text ?? serialNumber
            isSupervised = responses["IsSupervised"]?.flag ?? isSupervised
            capacityGB = responses["DeviceCapacity"]?.number ?? capacityGB
            availableGB = responses["AvailableDeviceCapacity"]?.number ?? availableGB
            batteryLevel = responses["BatteryLevel"]?.number ?? batteryLevel
            isLostModeEnabled = responses["IsMDMLostModeEnabled"]?.flag ?? isLostModeEnabled
            isActivationLockEnabled = responses["IsActivationLockEnabled"]?.flag ?? isActivationLockEnabled
        case .securityInfo:
            guard let info = answer["SecurityInfo"] else { return false }
            passcodePresent = info["PasscodePresent"]?.flag ?? passcodePresent
            passcodeCompliant = info["PasscodeCompliant"]?.flag ?? passcodeCompliant
            if case .integer(let level)? = info["HardwareEncryptionCaps"] { hardwareEncryption = level }
        case .installedApplicationList:
            guard case .array(let items)? = answer["InstalledApplicationList"] else { return false }
            apps = items.compactMap { item in
                item["Identifier"]?.text.map {
                    App(identifier: $0, name: item["Name"]?.text, version: item["ShortVersion"]?.text ?? item["Version"]?.text,
                        isInstalling: item["Installing"]?.flag == true ? true : nil,
                        hasFailedDownload: item["DownloadFailed"]?.flag == true ? true : nil)
                }
            }
        case .profileList:
            guard case .array(let items)? = answer["ProfileList"] else { return false }
            profiles = items.compactMap { item in
                item["PayloadIdentifier"]?.text.map {
                    Profile(identifier: $0, displayName: item["PayloadDisplayName"]?.text, isManaged: item["IsManaged"]?.flag ?? false, uuid: item["PayloadUUID"]?.text)
                }
            }
        default:
            return false
        }
        updatedAt = time
        return true
    }
}

extension PropertyList {
    var flag: Bool? {
        if case .boolean(let value) = self { return value }
        return nil
    }

    var number: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
}
