import Domain

/// Analytics: on or off.
struct AnalyticsForm: PayloadForm {
    var enabled = true
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        if case .analytics(let analytics)? = payload { enabled = analytics.enabled }
    }

    init(_ form: FormFields) {
        enabled = form.isChecked("enabled")
    }

    static func submitted(_ form: FormFields) -> Submission {
        let analytics = Analytics(enabled: form.isChecked("enabled"))
        return Submission(payload: .analytics(analytics), errors: analytics.validate())
    }
}
