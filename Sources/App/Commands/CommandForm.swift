import Domain

/// The queue-a-command form of a device page or the simulator, as sent: read into a
/// `DeviceCommand` by `CommandDraft`'s rules, or kept with a message beside each wrong field
/// so the page can show the form again with what was typed.
struct CommandForm: Sendable {
    var requestType = ""
    var apps = ""
    var deleteFeedback = false
    var captureMinutes = ""
    var message = ""
    var phoneNumber = ""
    var footnote = ""
    var confirmName = ""
    private(set) var errors = FieldErrors()

    init() {}

    init(_ form: FormFields) {
        requestType = form["requestType"]
        apps = form["apps"]
        deleteFeedback = form.isChecked("deleteFeedback")
        captureMinutes = form["captureMinutes"]
        message = form["message"]
        phoneNumber = form["phoneNumber"]
        footnote = form["footnote"]
        confirmName = form["confirmName"]
    }

    /// The command the form asks for the device, or nil with `errors` saying why not.
    mutating func validCommand(for target: CommandDraft.Target) -> DeviceCommand? {
        errors = FieldErrors()
        guard let type = DeviceCommand.RequestType(rawValue: requestType),
              DeviceCommand.RequestType.queueable(overMDM: target.overMDM).contains(type) else {
            errors["requestType"] = "Choose a command from the list."
            return nil
        }
        var draft = CommandDraft(requestType: type)
        draft.apps = apps.split(whereSeparator: { $0 == "," || $0.isWhitespace }).map(String.init)
        draft.deleteFeedback = deleteFeedback
        let minutes = captureMinutes.trimmingWhitespace()
        if !minutes.isEmpty {
            if let value = Int(minutes) { draft.captureMinutes = value }
            else if type.parameters.contains(.captureMinutes) {
                errors["captureMinutes"] = "Capture for 1 to 1,440 minutes, or leave it empty to send what is kept."
            }
        }
        (draft.message, draft.phoneNumber, draft.footnote, draft.confirmName) = (message, phoneNumber, footnote, confirmName)
        do {
            let command = try draft.command(for: target)
            return errors.isEmpty ? command : nil
        } catch {
            for problem in error.problems {
                // The form has one field of bundle IDs, whichever of them is wrong.
                errors[problem.field.hasPrefix("apps") ? "apps" : problem.field] = problem.message
            }
            return nil
        }
    }
}
