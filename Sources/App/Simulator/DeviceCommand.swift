import Domain

/// A command the console queues for a device, named by its MDM `RequestType` where Apple
/// has one.
struct DeviceCommand: Codable, Equatable, Sendable {
    enum RequestType: String, Codable, CaseIterable, Sendable {
        case installProfile = "InstallProfile"
        case removeProfile = "RemoveProfile"
        case restartDevice = "RestartDevice"
        /// `Settings` with `ApplicationConfiguration` items: sends managed app configuration.
        case settings = "Settings"
        case managedApplicationFeedback = "ManagedApplicationFeedback"
        /// The SDK's log request: what is kept now, or capture for a while.
        case requestLogs = "RequestLogs"
        case clearGuidedAccessPasscode = "ClearGuidedAccessPasscode"

        var displayName: String {
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
        var role: Role {
            switch self {
            case .managedApplicationFeedback, .requestLogs, .restartDevice, .clearGuidedAccessPasscode: .helpdesk
            case .settings, .installProfile, .removeProfile: .admin
            }
        }

        /// The optional fields a command of this type reads. A script that sends another with it
        /// is told so, rather than having it silently ignored.
        var parameters: Set<Parameter> {
            switch self {
            case .managedApplicationFeedback: [.apps, .deleteFeedback]
            case .requestLogs: [.captureMinutes]
            case .installProfile, .removeProfile, .restartDevice, .settings, .clearGuidedAccessPasscode: []
            }
        }

        enum Parameter: String, CaseIterable {
            case apps, deleteFeedback, captureMinutes

            /// The commands that read it: on every other command it must be absent.
            var readers: [RequestType] { RequestType.queueable.filter { $0.parameters.contains(self) } }
        }

        /// The commands a person queues; install and remove follow assignments by themselves.
        static let queueable: [RequestType] = [.restartDevice, .settings, .managedApplicationFeedback, .requestLogs, .clearGuidedAccessPasscode]
    }

    var requestType: RequestType
    /// Feedback: the apps to ask about (empty: every managed app).
    var apps: [String] = []
    /// A feedback request names at most this many apps; the device answers for each.
    static let maximumApps = 100
    var deleteFeedback = false
    /// Logs: nil sends what is kept now.
    var captureMinutes: Int?
    /// Install/remove: which profile, for the history.
    var profileName: String?

    var summary: String {
        switch requestType {
        case .installProfile, .removeProfile: "\(requestType.displayName): \(profileName ?? "")"
        case .managedApplicationFeedback: requestType.displayName + (deleteFeedback ? ", then delete it" : "")
        case .requestLogs: captureMinutes.map { "Capture logs for \($0) minutes" } ?? "Send available logs"
        default: requestType.displayName
        }
    }
}
