import Domain

/// Custom settings: one text area, and the format the text reads as.
struct CustomSettingsForm: PayloadForm {
    var text = ""
    /// "JSON", "Plain text"… for the hint under the text area; empty while there is no text.
    var formatName = ""
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let text = if let settings = payload?.settings(as: CustomSettings.self) { settings.text } else { "" }
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
        return Submission(payload: Payload(settings), errors: settings.validate())
    }
}

/// How pages show CustomSettings payloads; its form is `CustomSettingsForm`.
extension CustomSettings: PayloadPresentation {
    static var formType: any PayloadForm.Type { CustomSettingsForm.self }

    var summaryLines: [String] {
        ["\(format.displayName), \(text.utf8.count) bytes"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Format", value: format.displayName), PayloadFields.Field(label: "Settings the app receives", value: text)]
    }
}
