import Foundation

/// A command the console queues for a device, named by its MDM `RequestType` where Apple
/// has one, with the values that type reads.
@dynamicMemberLookup
public struct DeviceCommand: Equatable, Sendable {
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

        public var displayName: String {
            switch self {
            case .installProfile: "Install profile"
            case .removeProfile: "Remove profile"
            case .restartDevice: "Restart"
            case .settings: "Send managed app configuration"
            case .managedApplicationFeedback: "Fetch managed app feedback"
            case .requestLogs: "Request logs"
            case .clearGuidedAccessPasscode: "Clear Guided Access passcode"
            }
        }

        /// Who may send it: helpdesk asks devices for more and gets a stuck device going again
        /// (restart, a forgotten Guided Access passcode); changing what a device runs — app
        /// configuration, profiles — is an admin's.
        public var role: Role {
            switch self {
            case .managedApplicationFeedback, .requestLogs, .restartDevice, .clearGuidedAccessPasscode: .helpdesk
            case .settings, .installProfile, .removeProfile: .admin
            }
        }

        /// The optional fields a command of this type reads. A script that sends another with it
        /// is told so, rather than having it silently ignored.
        public var parameters: Set<Parameter> {
            switch self {
            case .managedApplicationFeedback: [.apps, .deleteFeedback]
            case .requestLogs: [.captureMinutes]
            case .installProfile, .removeProfile, .restartDevice, .settings, .clearGuidedAccessPasscode: []
            }
        }

        public enum Parameter: String, CaseIterable, Sendable {
            case apps, deleteFeedback, captureMinutes

            /// The commands that read it: on every other command it must be absent.
            public var readers: [RequestType] { RequestType.queueable.filter { $0.parameters.contains(self) } }
        }

        /// The commands a person queues; install and remove follow assignments by themselves.
        public static let queueable: [RequestType] = [.restartDevice, .settings, .managedApplicationFeedback, .requestLogs, .clearGuidedAccessPasscode]
    }

    /// The values a command carries besides its type; each type reads its own (`RequestType.parameters`).
    public struct Parameters: Codable, Equatable, Sendable {
        /// Feedback: the apps to ask about (empty: every managed app).
        public var apps: [String] = []
        public var deleteFeedback = false
        /// Logs: nil sends what is kept now.
        public var captureMinutes: Int?
        /// Install/remove: which profile, for the history.
        public var profileName: String?

        public init(apps: [String] = [], deleteFeedback: Bool = false, captureMinutes: Int? = nil, profileName: String? = nil) {
            self.apps = apps
            self.deleteFeedback = deleteFeedback
            self.captureMinutes = captureMinutes
            self.profileName = profileName
        }
    }

    public var requestType: RequestType
    public var parameters: Parameters

    /// A feedback request names at most this many apps; the device answers for each.
    public static let maximumApps = 100
    /// A command nobody ran within this long expires: a device that comes back after a month
    /// should not restart or send feedback someone wanted then.
    public static let lifetime: TimeInterval = 30 * 24 * 3600

    public init(requestType: RequestType, _ parameters: Parameters = Parameters()) {
        self.requestType = requestType
        self.parameters = parameters
    }

    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Parameters, Value>) -> Value {
        get { parameters[keyPath: keyPath] }
        set { parameters[keyPath: keyPath] = newValue }
    }

    public var summary: String {
        switch requestType {
        case .installProfile, .removeProfile: "\(requestType.displayName): \(parameters.profileName ?? "")"
        case .managedApplicationFeedback: requestType.displayName + (parameters.deleteFeedback ? ", then delete it" : "")
        case .requestLogs: parameters.captureMinutes.map { "Capture logs for \($0) minutes" } ?? "Send available logs"
        default: requestType.displayName
        }
    }
}
