import Domain

/// Analytics: on or off.
struct AnalyticsForm: PayloadForm {
    var enabled = true
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        if let analytics = payload?.settings(as: Analytics.self) { enabled = analytics.enabled }
    }

    init(_ form: FormFields) {
        enabled = form.isChecked("enabled")
    }

    static func submitted(_ form: FormFields) -> Submission {
        let analytics = Analytics(enabled: form.isChecked("enabled"))
        return Submission(payload: Payload(analytics), errors: analytics.validate())
    }
}

/// How pages show Analytics payloads; its form is `AnalyticsForm`.
extension Analytics: PayloadPresentation {
    static var formType: any PayloadForm.Type { AnalyticsForm.self }

    var summaryLines: [String] {
        [enabled ? "Apps send their analytics events" : "Disabled"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Send the analytics events apps record", value: PayloadFields.yes(enabled))]
    }
}
