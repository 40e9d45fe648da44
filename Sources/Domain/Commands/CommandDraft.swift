/// A command as a person or a script asks for it, checked against the device it is for: the
/// one set of rules behind the device page's form and the API's command body.
public struct CommandDraft: Sendable {
    public var requestType: DeviceCommand.RequestType
    public var apps: [String] = []
    public var deleteFeedback = false
    public var captureMinutes: Int?
    public var message: String?
    public var phoneNumber: String?
    public var footnote: String?
    public var confirmName: String?

    /// The device the command is for, as far as the rules need it.
    public struct Target: Sendable {
        public let name: String
        public let overMDM: Bool
        public let isSupervised: Bool
        public let osVersion: String

        public init(name: String, overMDM: Bool, isSupervised: Bool, osVersion: String) {
            self.name = name
            self.overMDM = overMDM
            self.isSupervised = isSupervised
            self.osVersion = osVersion
        }
    }

    /// A field and what is wrong with it.
    public struct Problem: Equatable, Sendable {
        public let field: String
        public let message: String
    }

    /// Every problem found, each naming its field.
    public struct Refusal: Error, Equatable, Sendable {
        public let problems: [Problem]
    }

    /// How long a device may be asked to capture logs: up to a day.
    public static let captureMinutesRange = 1...1440
    /// What a locked screen shows stays short enough to read on it.
    public static let maximumMessage = 200
    public static let maximumPhoneNumber = 40

    public init(requestType: DeviceCommand.RequestType) {
        self.requestType = requestType
    }

    /// The command, or every problem found (each naming its field).
    public func command(for target: Target) throws(Refusal) -> DeviceCommand {
        var problems: [Problem] = []
        if !DeviceCommand.RequestType.queueable(overMDM: target.overMDM).contains(requestType) {
            let kind = target.overMDM ? "a device enrolled over MDM" : "a simulated device"
            throw Refusal(problems: [Problem(field: "requestType", message: "\(requestType.displayName) is not a command for \(kind).")])
        }
        if target.overMDM, let reason = requestType.unavailability(isSupervised: target.isSupervised, osVersion: target.osVersion) {
            problems.append(Problem(field: "requestType", message: reason))
        }
        var command = DeviceCommand(requestType: requestType)
        let reads = requestType.parameters
        if reads.contains(.apps) {
            if let (index, problem) = apps.enumerated().lazy.compactMap({ index, app in BundleID.problem(app).map { (index, $0) } }).first {
                problems.append(Problem(field: apps.count == 1 ? "apps" : "apps.\(index)", message: problem))
            } else if apps.count > DeviceCommand.maximumApps {
                problems.append(Problem(field: "apps", message: "Ask about at most \(DeviceCommand.maximumApps) apps at once."))
            }
            command.apps = apps
        }
        if reads.contains(.deleteFeedback) { command.deleteFeedback = deleteFeedback }
        if reads.contains(.captureMinutes), let minutes = captureMinutes {
            if Self.captureMinutesRange.contains(minutes) { command.captureMinutes = minutes }
            else { problems.append(Problem(field: "captureMinutes", message: "Capture for 1 to 1,440 minutes, or leave it empty to send what is kept.")) }
        }
        for (parameter, value, limit) in [(DeviceCommand.RequestType.Parameter.message, message, Self.maximumMessage),
                                          (.phoneNumber, phoneNumber, Self.maximumPhoneNumber), (.footnote, footnote, Self.maximumMessage)]
        where reads.contains(parameter) {
            guard let text = value?.trimmingWhitespace(), !text.isEmpty else { continue }
            if let problem = PlainText.problem(text) { problems.append(Problem(field: parameter.rawValue, message: problem)) }
            else if text.count > limit { problems.append(Problem(field: parameter.rawValue, message: "Keep it to \(limit) characters or fewer.")) }
            switch parameter {
            case .message: command.message = text
            case .phoneNumber: command.phoneNumber = text
            default: command.footnote = text
            }
        }
        if requestType == .enableLostMode, command.message == nil, command.phoneNumber == nil, !problems.contains(where: { $0.field == "message" }) {
            problems.append(Problem(field: "message", message: "Lost Mode shows a message or a phone number on the locked screen; give at least one."))
        }
        if reads.contains(.confirmName), confirmName?.trimmingWhitespace() != target.name {
            problems.append(Problem(field: "confirmName", message: "Type the device's name, “\(target.name)”, to erase everything on it."))
        }
        guard problems.isEmpty else { throw Refusal(problems: problems) }
        return command
    }
}
