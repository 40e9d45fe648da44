extension DeviceCommand {
    /// What a command asks, named by Apple's MDM `RequestType` where Apple has one.
    public enum RequestType: String, Codable, CaseIterable, Sendable {
        case installProfile = "InstallProfile"
        case removeProfile = "RemoveProfile"
        case restartDevice = "RestartDevice"
        /// `Settings` with `ApplicationConfiguration` items: sends managed app configuration.
        case settings = "Settings"
        case managedApplicationFeedback = "ManagedApplicationFeedback"
        /// The SDK's log request: what is kept now, or capture for a while.
        case requestLogs = "RequestLogs"
        case clearGuidedAccessPasscode = "ClearGuidedAccessPasscode"
        case deviceInformation = "DeviceInformation"
        case securityInfo = "SecurityInfo"
        case installedApplicationList = "InstalledApplicationList"
        case profileList = "ProfileList"
        case shutDownDevice = "ShutDownDevice"
        case deviceLock = "DeviceLock"
        case enableLostMode = "EnableLostMode"
        case disableLostMode = "DisableLostMode"
        case deviceLocation = "DeviceLocation"
        case clearPasscode = "ClearPasscode"
        case eraseDevice = "EraseDevice"
        case managedApplicationConfiguration = "ManagedApplicationConfiguration"
        /// An app the policy needs, installed as the catalog says (queued by the policy only).
        case installApplication = "InstallApplication"
        /// An app the console installed, removed with its data (a device leaving management).
        case removeApplication = "RemoveApplication"

        /// Which devices run it: the console's SDK (the simulator and the SDK's device API),
        /// Apple's MDM client on an enrolled device, or both.
        public enum Reach: Sendable {
            case sdk, mdm, both
        }

        public var reach: Reach {
            switch self {
            case .requestLogs, .clearGuidedAccessPasscode: .sdk
            case .installProfile, .removeProfile, .restartDevice, .settings, .managedApplicationFeedback: .both
            case .deviceInformation, .securityInfo, .installedApplicationList, .profileList, .shutDownDevice, .deviceLock,
                 .enableLostMode, .disableLostMode, .deviceLocation, .clearPasscode, .eraseDevice, .managedApplicationConfiguration,
                 .installApplication, .removeApplication: .mdm
            }
        }

        public var displayName: String {
            switch self {
            case .installProfile: "Install profile"
            case .removeProfile: "Remove profile"
            case .restartDevice: "Restart"
            case .settings: "Send managed app configuration"
            case .managedApplicationFeedback: "Fetch managed app feedback"
            case .requestLogs: "Request logs"
            case .clearGuidedAccessPasscode: "Clear Guided Access passcode"
            case .deviceInformation: "Read device information"
            case .securityInfo: "Read security information"
            case .installedApplicationList: "List installed apps"
            case .profileList: "List installed profiles"
            case .shutDownDevice: "Shut down"
            case .deviceLock: "Lock the screen"
            case .enableLostMode: "Turn on Lost Mode"
            case .disableLostMode: "Turn off Lost Mode"
            case .deviceLocation: "Locate (Lost Mode)"
            case .clearPasscode: "Clear the passcode"
            case .eraseDevice: "Erase all content and settings"
            case .managedApplicationConfiguration: "Read managed app configuration"
            case .installApplication: "Install app"
            case .removeApplication: "Remove app"
            }
        }

        /// Who may send it: helpdesk asks devices for more and gets a stuck device going again
        /// (restart, lock, a forgotten Guided Access passcode); changing what a device runs,
        /// taking its passcode away, tracking or erasing it is an admin's.
        public var role: Role {
            switch self {
            case .managedApplicationFeedback, .requestLogs, .restartDevice, .clearGuidedAccessPasscode, .deviceInformation, .securityInfo,
                 .installedApplicationList, .profileList, .shutDownDevice, .deviceLock, .managedApplicationConfiguration: .helpdesk
            case .settings, .installProfile, .removeProfile, .enableLostMode, .disableLostMode, .deviceLocation, .clearPasscode, .eraseDevice,
                 .installApplication, .removeApplication: .admin
            }
        }

        /// Apple runs it only on a supervised device.
        public var needsSupervision: Bool {
            switch self {
            case .restartDevice, .shutDownDevice, .enableLostMode, .disableLostMode, .deviceLocation: true
            default: false
            }
        }

        /// The first iOS that runs it, where later than the console's oldest (iOS 9).
        public var minimumOS: String? {
            switch self {
            case .restartDevice, .shutDownDevice: "10.3"
            default: nil
            }
        }

        /// The optional fields of a person's command form (and the API's command body) a command
        /// of this type reads. A script that sends another with it is told so, rather than
        /// having it silently ignored.
        public var parameters: Set<Parameter> {
            switch self {
            case .managedApplicationFeedback: [.apps, .deleteFeedback]
            case .managedApplicationConfiguration: [.apps]
            case .requestLogs: [.captureMinutes]
            case .deviceLock: [.message, .phoneNumber]
            case .enableLostMode: [.message, .phoneNumber, .footnote]
            case .eraseDevice: [.confirmName]
            default: []
            }
        }

        public enum Parameter: String, CaseIterable, Sendable {
            case apps, deleteFeedback, captureMinutes, message, phoneNumber, footnote
            /// Erasing asks for the device's name, typed, so a slip of the list cannot erase one.
            case confirmName

            /// The commands that read it: on every other command it must be absent.
            public var readers: [RequestType] { RequestType.allCases.filter { $0.parameters.contains(self) } }
        }

        /// The commands a person queues for a simulated device; install and remove follow
        /// assignments by themselves.
        public static let queueable: [RequestType] = [.restartDevice, .settings, .managedApplicationFeedback, .requestLogs, .clearGuidedAccessPasscode]

        /// The commands a person queues for a real device enrolled over MDM.
        public static let queueableOverMDM: [RequestType] = [
            .deviceInformation, .securityInfo, .installedApplicationList, .profileList, .managedApplicationFeedback,
            .managedApplicationConfiguration, .settings, .deviceLock, .restartDevice, .shutDownDevice, .enableLostMode,
            .disableLostMode, .deviceLocation, .clearPasscode, .eraseDevice,
        ]

        /// The commands a person may queue for a device: Apple's MDM commands for a real device,
        /// the console's SDK commands for one the simulator plays.
        public static func queueable(overMDM: Bool) -> [RequestType] { overMDM ? queueableOverMDM : queueable }

        /// Why Apple would not run it on this device, in words; nil when it would.
        public func unavailability(isSupervised: Bool, osVersion: String) -> String? {
            if needsSupervision && !isSupervised { return "Apple runs \(displayName.lowercased()) only on supervised devices." }
            if let minimum = minimumOS.flatMap(AppleVersion.init), let version = AppleVersion(osVersion), version < minimum {
                return "Needs iOS \(minimum) or later; the device runs iOS \(osVersion)."
            }
            return nil
        }
    }
}
