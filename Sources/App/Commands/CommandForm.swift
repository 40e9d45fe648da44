import Domain

/// The queue-a-command form of a device page or the simulator, as sent: read into a
/// `DeviceCommand`, or kept with a message beside each wrong field so the page can show the
/// form again with what was typed.
struct CommandForm: Sendable {
    var requestType = ""
    var apps = ""
    var deleteFeedback = false
    var captureMinutes = ""
    private(set) var errors = FieldErrors()

    init() {}

    init(_ form: FormFields) {
        requestType = form["requestType"]
        apps = form["apps"]
        deleteFeedback = form.isChecked("deleteFeedback")
        captureMinutes = form["captureMinutes"]
    }

    /// The command the form asks for, or nil with `errors` saying why not.
    mutating func validCommand() -> DeviceCommand? {
        errors = FieldErrors()
        guard let type = DeviceCommand.RequestType(rawValue: requestType), DeviceCommand.RequestType.queueable.contains(type) else {
            errors["requestType"] = "Choose a command from the list."
            return nil
        }
        var command = DeviceCommand(requestType: type)
        switch type {
        case .managedApplicationFeedback:
            command.apps = apps.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
            if let problem = command.apps.lazy.compactMap(BundleID.problem).first { errors["apps"] = problem }
            else if command.apps.count > DeviceCommand.maximumApps { errors["apps"] = "Ask about at most \(DeviceCommand.maximumApps) apps at once." }
            command.deleteFeedback = deleteFeedback
        case .requestLogs:
            let minutes = captureMinutes.trimmingWhitespace()
            if !minutes.isEmpty {
                if let value = Int(minutes), (1...1440).contains(value) {
                    command.captureMinutes = value
                } else {
                    errors["captureMinutes"] = "Capture for 1 to 1,440 minutes, or leave it empty to send what is kept."
                }
            }
        default:
            break
        }
        return errors.isEmpty ? command : nil
    }
}
