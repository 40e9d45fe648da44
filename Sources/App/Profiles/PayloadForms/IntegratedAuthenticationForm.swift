import Domain

/// Integrated authentication: on or off, the allowed sites one per line, and the credential.
struct IntegratedAuthenticationForm: PayloadForm {
    var enabled = true
    var sites = ""
    var credentials: [SelectOption] = []
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let integrated = if let value = payload?.settings(as: IntegratedAuthentication.self) { value } else { IntegratedAuthentication() }
        enabled = integrated.enabled
        sites = LineList.text(integrated.allowedSites)
        credentials = SelectOption.cases(\IntegratedAuthentication.Credential.displayName, selected: integrated.credential.rawValue)
    }

    init(_ form: FormFields) {
        enabled = form.isChecked("enabled")
        sites = form["sites"]
        credentials = SelectOption.cases(\IntegratedAuthentication.Credential.displayName, selected: form["credential"])
    }

    static func submitted(_ form: FormFields) -> Submission {
        let entries = LineList.entries(form["sites"])
        let credential = IntegratedAuthentication.Credential(rawValue: form["credential"])
        let integrated = IntegratedAuthentication(enabled: form.isChecked("enabled"), allowedSites: entries, credential: credential ?? .enrollmentCredentials)
        var errors = ValidationErrors()
        if let message = LineList.message("sites", in: integrated.validate(), entries: entries) { errors["sites"] = message }
        if credential == nil { errors["credential"] = "Choose what the apps sign in with." }
        return Submission(payload: credential == nil ? nil : Payload(integrated), errors: errors)
    }
}

/// How pages show IntegratedAuthentication payloads; its form is `IntegratedAuthenticationForm`.
extension IntegratedAuthentication: PayloadPresentation {
    static var formType: any PayloadForm.Type { IntegratedAuthenticationForm.self }

    var summaryLines: [String] {
        [enabled ? "\(credential.displayName) for \(allowedSites.joined(separator: ", "))" : "Disabled"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Enabled", value: PayloadFields.yes(enabled)),
         PayloadFields.Field(label: "Allowed sites", value: allowedSites.isEmpty ? "None" : allowedSites.joined(separator: ", ")),
         PayloadFields.Field(label: "Sign in with", value: credential.displayName)]
    }
}
