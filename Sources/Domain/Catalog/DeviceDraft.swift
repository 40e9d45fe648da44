/// The two device families the console manages.
public enum DeviceModel: String, CaseIterable, Codable, Sendable {
    case iPad
    case iPhone
}

/// A device as an admin enters it by hand (the simulator enrolls devices too).
public struct DeviceDraft: Equatable, Sendable {
    public var name: String
    public var model: DeviceModel?
    public var osVersion: String
    public var serialNumber: String
    public var udid: String
    public var isSupervised: Bool
    public var owner: String
    public var installedApps: [String]

    public init(name: String, model: DeviceModel?, osVersion: String, serialNumber: String, udid: String,
                isSupervised: Bool, owner: String = "", installedApps: [String] = []) {
        self.name = name
        self.model = model
        self.osVersion = osVersion
        self.serialNumber = serialNumber
        self.udid = udid
        self.isSupervised = isSupervised
        self.owner = owner
        self.installedApps = installedApps
    }

    /// Trimmed, with the serial number and UDID upper-cased as Apple prints them. Only a–z
    /// change case: `uppercased()` would turn “ı” into “I” and “ﬀ” into “FF”, letting a
    /// lookalike pass as a serial number.
    public var normalised: DeviceDraft {
        var copy = self
        copy.name = name.trimmingWhitespace()
        copy.osVersion = osVersion.trimmingWhitespace()
        copy.serialNumber = serialNumber.trimmingWhitespace().asciiUppercased
        copy.udid = udid.trimmingWhitespace().asciiUppercased
        copy.owner = owner.trimmingWhitespace()
        copy.installedApps = installedApps.map { $0.trimmingWhitespace() }
        return copy
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        let device = normalised
        if device.name.isEmpty { errors["name"] = "Enter a name, such as “Lobby kiosk 3”." }
        else if device.name.count > 80 { errors["name"] = "Keep the name to 80 characters or fewer." }
        else if let problem = PlainText.problem(device.name) { errors["name"] = problem }
        if device.model == nil { errors["model"] = "Choose iPad or iPhone." }
        if !Self.isOSVersion(device.osVersion) { errors["osVersion"] = "Enter an iOS version like 17.4 or 18.1.2." }
        let serialOK = (8...14).contains(device.serialNumber.count)
            && device.serialNumber.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        if !serialOK { errors["serialNumber"] = "Enter the serial number: 8 to 14 letters and digits." }
        if !Self.isUDID(device.udid) { errors["udid"] = "Enter the UDID: 40 hex digits, or 8-16 hex digits joined by a hyphen." }
        if device.owner.count > 120 { errors["owner"] = "Keep the owner to 120 characters or fewer." }
        else if let problem = PlainText.problem(device.owner) { errors["owner"] = problem }
        for (index, app) in device.installedApps.enumerated() {
            if let problem = BundleID.problem(app) { errors["installedApps.\(index)"] = problem }
        }
        return errors
    }

    static func isOSVersion(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCIIDigit) }
    }

    /// Older devices have a 40-hex-digit UDID; since 2018 it is 8 hex digits, a hyphen, 16 more.
    static func isUDID(_ text: String) -> Bool {
        // Character.isHexDigit also accepts fullwidth forms, which no UDID contains.
        let hex: (Substring) -> Bool = { $0.allSatisfy { $0.isASCII && $0.isHexDigit } }
        if text.count == 40 { return hex(Substring(text)) }
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && parts[0].count == 8 && parts[1].count == 16 && hex(parts[0]) && hex(parts[1])
    }
}
