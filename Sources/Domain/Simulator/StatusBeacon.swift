import Foundation

/// The status beacon an SDK app sends to the console on unlock and when its code asks (seed
/// 004, "Beacon Data Sent Upon Application Unlock or Sent Manually"): who and what the device
/// is, and whether it is enrolled and compliant.
public struct StatusBeacon: Codable, Equatable, Sendable {
    public enum Enrollment: String, CaseIterable, Codable, Sendable {
        case enrolled
        /// An enterprise wipe removed the managed apps.
        case wiped

        public var displayName: String { self == .enrolled ? "Enrolled" : "Wiped (enterprise wipe)" }
    }

    public var deviceName: String
    public var group: String?
    public var bundleID: String
    public var appVersion: String
    public var osName: String
    public var osVersion: String
    public var user: String
    public var enrollment: Enrollment
    public var deviceCompliance: ComplianceState
    /// Why the device is out of compliance, as its apps' blocker says; nil while compliant.
    public var complianceReason: String?

    public init(deviceName: String, group: String?, bundleID: String, appVersion: String, osName: String = "iOS",
                osVersion: String, user: String, enrollment: Enrollment, deviceCompliance: ComplianceState, complianceReason: String?) {
        self.deviceName = deviceName
        self.group = group
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.osName = osName
        self.osVersion = osVersion
        self.user = user
        self.enrollment = enrollment
        self.deviceCompliance = deviceCompliance
        self.complianceReason = complianceReason
    }
}

extension SimulatedDevice {
    /// The beacon `bundleID` sends now; the console adds what only it knows (names, user).
    public func beacon(from bundleID: String, deviceName: String, group: String?, user: String) -> StatusBeacon {
        StatusBeacon(deviceName: deviceName, group: group, bundleID: bundleID, appVersion: version(of: bundleID),
                            osVersion: osVersion ?? "", user: user, enrollment: wipedAt == nil ? .enrolled : .wiped,
                            deviceCompliance: complianceState,
                            complianceReason: complianceReason)
    }
}
