import Domain

/// Compromised protection: on or off, and whether a jailbroken device's SDK apps are blocked
/// or its managed apps wiped.
struct CompromisedProtectionForm: PayloadForm {
    var enabled = true
    var actions: [SelectOption] = []
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        let protection = if let value = payload?.settings(as: CompromisedProtection.self) { value } else { CompromisedProtection() }
        enabled = protection.enabled
        actions = SelectOption.cases(\ComplianceRule.Action.displayName, selected: protection.action.rawValue)
    }

    init(_ form: FormFields) {
        enabled = form.isChecked("enabled")
        actions = SelectOption.cases(\ComplianceRule.Action.displayName, selected: form["action"])
    }

    static func submitted(_ form: FormFields) -> Submission {
        guard let action = ComplianceRule.Action(rawValue: form["action"]) else {
            var errors = ValidationErrors()
            errors["action"] = "Choose what happens on a jailbroken device."
            return Submission(payload: nil, errors: errors)
        }
        let protection = CompromisedProtection(enabled: form.isChecked("enabled"), action: action)
        return Submission(payload: Payload(protection), errors: protection.validate())
    }
}

/// How pages show CompromisedProtection payloads; its form is `CompromisedProtectionForm`.
extension CompromisedProtection: PayloadPresentation {
    static var formType: any PayloadForm.Type { CompromisedProtectionForm.self }

    var summaryLines: [String] {
        [enabled ? "On a jailbroken device: \(action.displayName.lowercased())" : "Disabled"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Check whether the device is jailbroken", value: PayloadFields.yes(enabled)),
         PayloadFields.Field(label: "On a jailbroken device", value: action.displayName)]
    }
}
