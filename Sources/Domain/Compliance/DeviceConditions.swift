import Foundation

/// What the SDK in a device's apps looks at before an app opens — versions, jailbreak,
/// location, network — as far as it is known. The simulator knows all of it about its device;
/// the console knows a real device only by what it last reported (its record, its status
/// beacon, its logs), and a part it never reported stays nil: "not known", never a guess.
public struct DeviceConditions: Equatable, Sendable {
    /// Where the device is, as geofencing needs it.
    public enum Location: Equatable, Sendable {
        case at(GeoPoint)
        /// Location services are off (airplane mode or turned off), with the reason as the
        /// device's screen would say it: geofencing stops.
        case servicesOff(reason: String)
    }

    public enum Network: Equatable, Sendable {
        case online
        case offline(minutes: Int)
    }

    public var osVersion: String?
    /// The SDK-built apps installed: only they enforce anything.
    public var sdkApps: [String]
    /// Installed apps' versions as reported; an installed app missing here has a version
    /// nobody reported.
    public var appVersions: [String: String]
    public var installedApps: [String]
    public var isJailbroken: Bool?
    public var location: Location?
    public var network: Network?

    public init(osVersion: String?, installedApps: [String], sdkApps: [String], appVersions: [String: String],
                isJailbroken: Bool?, location: Location?, network: Network?) {
        self.osVersion = osVersion
        self.installedApps = installedApps
        self.sdkApps = sdkApps
        self.appVersions = appVersions
        self.isJailbroken = isJailbroken
        self.location = location
        self.network = network
    }
}

extension SimulatedDevice {
    /// Everything the simulated device knows about itself, for the same rules the console's
    /// preview applies to reports.
    public var conditions: DeviceConditions {
        let location: DeviceConditions.Location = if network == .offline {
            .servicesOff(reason: "Geofencing stops in airplane mode: location services are off, so the allowed areas are not enforced.")
        } else if let location {
            .at(location)
        } else {
            .servicesOff(reason: "Geofencing stops while location services are off: the allowed areas are not enforced.")
        }
        let offlineMinutes = Int(clock.timeIntervalSince(offlineSince ?? clock) / 60)
        return DeviceConditions(
            osVersion: osVersion, installedApps: apps.map(\.bundleID), sdkApps: apps.filter(\.isSDKBuilt).map(\.bundleID),
            appVersions: Dictionary(apps.map { ($0.bundleID, version(of: $0.bundleID)) }, uniquingKeysWith: { first, _ in first }),
            isJailbroken: isCompromised, location: location, network: network == .offline ? .offline(minutes: offlineMinutes) : .online)
    }
}
