import Domain

/// Authentication: how users unlock SDK apps, single sign-on, and how long they may work offline.
struct AuthenticationForm: PayloadForm {
    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    var types: [Choice] = []
    var singleSignOn = false
    var offlineAccessEnabled = false
    var maximumOffline = ""
    var errors: [String: String] = [:]
    /// Combinations that do nothing or surprise (single sign-on with authentication Disabled).
    var warnings: [String] = []

    init(_ payload: Payload?) {
        guard let auth = payload?.settings(as: Authentication.self) else {
            self.init(Authentication())
            return
        }
        self.init(auth)
    }

    private init(_ auth: Authentication) {
        types = Self.choices(selected: auth.type.rawValue)
        singleSignOn = auth.singleSignOn
        offlineAccessEnabled = auth.offlineAccessEnabled
        maximumOffline = String(auth.maximumOfflineMinutes)
        warnings = auth.warnings
    }

    init(_ form: FormFields) {
        types = Self.choices(selected: form["type"])
        singleSignOn = form.isChecked("singleSignOn")
        offlineAccessEnabled = form.isChecked("offlineAccessEnabled")
        maximumOffline = form["maximumOffline"]
        // Warnings quote the offline allowance, so they wait for one that reads as a number.
        let minutes = Int(maximumOffline.trimmingWhitespace())
        if let type = AuthenticationType(rawValue: form["type"]), !offlineAccessEnabled || minutes != nil {
            warnings = Authentication(type: type, singleSignOn: singleSignOn, offlineAccessEnabled: offlineAccessEnabled,
                                      maximumOfflineMinutes: minutes ?? 1440).warnings
        }
    }

    private static func choices(selected: String) -> [Choice] {
        AuthenticationType.allCases.map { Choice(value: $0.rawValue, label: $0.displayName, selected: $0.rawValue == selected) }
    }

    static func submitted(_ form: FormFields) -> Submission {
        var errors = ValidationErrors()
        let type = AuthenticationType(rawValue: form["type"])
        if type == nil { errors["type"] = "Choose how users authenticate." }
        let offline = form.isChecked("offlineAccessEnabled")
        let minutesText = form["maximumOffline"].trimmingWhitespace()
        let minutes = Int(minutesText)
        if offline && minutes == nil { errors["maximumOffline"] = "Enter the number of minutes, such as 480 for a working day." }
        // One pass over every field: the allowance's range is checked even while the type is
        // missing (its rule does not depend on the type), so both messages show at once.
        let auth = Authentication(type: type ?? .passcode, singleSignOn: form.isChecked("singleSignOn"), offlineAccessEnabled: offline,
                                  maximumOfflineMinutes: minutes ?? 1440)
        errors.merge(auth.validate())
        return Submission(payload: errors.isEmpty ? Payload(auth) : nil, errors: errors)
    }
}

/// How pages show Authentication payloads; its form is `AuthenticationForm`.
extension Authentication: PayloadPresentation {
    static var formType: any PayloadForm.Type { AuthenticationForm.self }

    var summaryLines: [String] {
        ["\(type.displayName)\(singleSignOn ? " with single sign-on" : "")",
         offlineAccessEnabled ? "Offline for up to \(maximumOfflineMinutes) minutes" : "No offline access"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Authentication type", value: type.displayName), PayloadFields.Field(label: "Single sign-on", value: PayloadFields.yes(singleSignOn)),
         PayloadFields.Field(label: "Offline access", value: offlineAccessEnabled ? "Up to \(maximumOfflineMinutes) minutes" : "No")]
    }
}
