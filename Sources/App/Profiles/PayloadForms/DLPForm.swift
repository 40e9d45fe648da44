import Domain

/// Data loss prevention: each setting a Yes/No with what "No" means for the user.
struct DLPForm: PayloadForm {
    struct Setting {
        let name: String
        let label: String
        let explanation: String
        let yes: Bool
    }

    var settings: [Setting] = []
    var errors: [String: String] = [:]
    /// A new payload: the form starts from the restrictive choices and says so.
    var isNew = false
    /// Every answer allows everything: said before saving, since such a payload changes nothing.
    var restrictsNothing = false

    init(_ payload: Payload?) {
        guard let dlp = payload?.settings(as: DataLossPrevention.self) else {
            self.init(DataLossPrevention.restrictive)
            isNew = true
            return
        }
        self.init(dlp)
    }

    private init(_ dlp: DataLossPrevention) {
        settings = DataLossPrevention.fields.map {
            Setting(name: $0.sdkKey, label: $0.label, explanation: $0.explanation, yes: dlp[keyPath: $0.keyPath])
        }
        restrictsNothing = dlp.restrictsNothing
    }

    init(_ form: FormFields) {
        self.init(Self.payload(from: form))
    }

    private static func payload(from form: FormFields) -> DataLossPrevention {
        var dlp = DataLossPrevention()
        for field in DataLossPrevention.fields {
            dlp[keyPath: field.keyPath] = form[field.sdkKey] == "yes"
        }
        return dlp
    }

    static func submitted(_ form: FormFields) -> Submission {
        let dlp = payload(from: form)
        return Submission(payload: Payload(dlp), errors: dlp.validate())
    }
}

/// How pages show DataLossPrevention payloads; its form is `DLPForm`.
extension DataLossPrevention: PayloadPresentation {
    static var formType: any PayloadForm.Type { DLPForm.self }

    var summaryLines: [String] {
        DataLossPrevention.fields.map { "\($0.label): \(self[keyPath: $0.keyPath] ? "Yes" : "No")" }
    }

    var labelledFields: [PayloadFields.Field] {
        DataLossPrevention.fields.map { PayloadFields.Field(label: $0.label, value: PayloadFields.yes(self[keyPath: $0.keyPath])) }
    }
}
