import Foundation

/// A command the console queues for a device, named by its MDM `RequestType` where Apple
/// has one, with the values that type reads.
@dynamicMemberLookup
public struct DeviceCommand: Equatable, Sendable {
    /// The values a command carries besides its type; each type reads its own (`RequestType.parameters`).
    public struct Parameters: Codable, Equatable, Sendable {
        /// Feedback: the apps to ask about (empty: every managed app).
        public var apps: [String] = []
        public var deleteFeedback = false
        /// Logs: nil sends what is kept now.
        public var captureMinutes: Int?
        /// Install/remove: which profile, for the history.
        public var profileName: String?
        /// Install/remove over MDM: the profile's `PayloadIdentifier`, and for an install the
        /// digest of the content to send (the signed bytes are kept once per content).
        public var profileIdentifier: String?
        public var profileDigest: String?
        /// Lock and Lost Mode: what the locked screen says, and the number it offers to call.
        public var message: String?
        public var phoneNumber: String?
        /// Lost Mode: the line under the message.
        public var footnote: String?

        public init(apps: [String] = [], deleteFeedback: Bool = false, captureMinutes: Int? = nil, profileName: String? = nil,
                    message: String? = nil, phoneNumber: String? = nil, footnote: String? = nil) {
            self.apps = apps
            self.deleteFeedback = deleteFeedback
            self.captureMinutes = captureMinutes
            self.profileName = profileName
            self.message = message
            self.phoneNumber = phoneNumber
            self.footnote = footnote
        }

        // Rows stored before the lock texts existed lack their keys.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            apps = try container.decodeIfPresent([String].self, forKey: .apps) ?? []
            deleteFeedback = try container.decodeIfPresent(Bool.self, forKey: .deleteFeedback) ?? false
            captureMinutes = try container.decodeIfPresent(Int.self, forKey: .captureMinutes)
            profileName = try container.decodeIfPresent(String.self, forKey: .profileName)
            message = try container.decodeIfPresent(String.self, forKey: .message)
            phoneNumber = try container.decodeIfPresent(String.self, forKey: .phoneNumber)
            footnote = try container.decodeIfPresent(String.self, forKey: .footnote)
            profileIdentifier = try container.decodeIfPresent(String.self, forKey: .profileIdentifier)
            profileDigest = try container.decodeIfPresent(String.self, forKey: .profileDigest)
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
        case .settings where !parameters.apps.isEmpty:
            // The policy's own: one app's configuration sent, or taken away.
            parameters.profileIdentifier != nil && parameters.profileDigest == nil
                ? "Remove managed app configuration of \(parameters.apps.joined(separator: ", "))"
                : "\(requestType.displayName) to \(parameters.apps.joined(separator: ", "))"
        case .installApplication, .removeApplication: "\(requestType.displayName): \(parameters.apps.joined(separator: ", "))"
        case .managedApplicationFeedback: requestType.displayName + (parameters.deleteFeedback ? ", then delete it" : "")
        case .requestLogs: parameters.captureMinutes.map { "Capture logs for \($0) minutes" } ?? "Send available logs"
        default: requestType.displayName
        }
    }
}
