import Domain

/// Logging: on or off, the level (that level and every more severe one is uploaded), and
/// whether uploads wait for Wi-Fi.
struct LoggingForm: PayloadForm {
    struct Level {
        let value: String
        let label: String
        let selected: Bool
    }

    var enabled = true
    var levels: [Level] = []
    var wifiOnly = false
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        guard let logging = payload?.settings(as: Logging.self) else {
            self.init(Logging())
            return
        }
        self.init(logging)
    }

    private init(_ logging: Logging) {
        enabled = logging.enabled
        wifiOnly = logging.wifiOnly
        levels = LogLevel.allCases.map { Level(value: $0.rawValue, label: $0.displayName, selected: $0 == logging.level) }
    }

    init(_ form: FormFields) {
        let parsed = Self.parse(form)
        self.init(parsed.logging)
        errors = parsed.errors
    }

    private static func parse(_ form: FormFields) -> (logging: Logging, errors: [String: String]) {
        var logging = Logging()
        logging.enabled = form.isChecked("enabled")
        logging.wifiOnly = form.isChecked("wifiOnly")
        var errors: [String: String] = [:]
        if let level = LogLevel(rawValue: form["level"]) {
            logging.level = level
        } else {
            errors["level"] = "Choose one of the levels."
        }
        return (logging, errors)
    }

    static func submitted(_ form: FormFields) -> Submission {
        let parsed = parse(form)
        var errors = parsed.logging.validate()
        for (field, message) in parsed.errors { errors[field] = message }
        return Submission(payload: parsed.errors.isEmpty ? Payload(parsed.logging) : nil, errors: errors)
    }
}

/// How pages show Logging payloads; its form is `LoggingForm`.
extension Logging: PayloadPresentation {
    static var formType: any PayloadForm.Type { LoggingForm.self }

    var summaryLines: [String] {
        [enabled ? "Enabled at \(level.displayName) and more severe" : "Disabled",
         wifiOnly ? "Uploads over Wi-Fi only" : "Uploads over any network"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Enabled", value: PayloadFields.yes(enabled)), PayloadFields.Field(label: "Level kept", value: "\(level.displayName) and more severe"),
         PayloadFields.Field(label: "Upload over Wi-Fi only", value: PayloadFields.yes(wifiOnly))]
    }
}
