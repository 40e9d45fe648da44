import Domain

/// Custom settings: one text area, and the format the text reads as.
struct CustomSettingsForm: PayloadForm {
    var text = ""
    /// "JSON", "Plain text"… for the hint under the text area; empty while there is no text.
    var formatName = ""
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let text = if case .customSettings(let settings)? = payload { settings.text } else { "" }
        self.init(text: text)
    }

    init(_ form: FormFields) {
        self.init(text: form["text"])
    }

    private init(text: String) {
        self.text = text
        formatName = text.trimmingWhitespace().isEmpty ? "" : CustomSettings(text: text).format.displayName
    }

    static func submitted(_ form: FormFields) -> Submission {
        let settings = CustomSettings(text: form["text"])
        return Submission(payload: .customSettings(settings), errors: settings.validate())
    }
}
