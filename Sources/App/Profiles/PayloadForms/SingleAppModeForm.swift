import Domain

/// The Single App Mode form: the app, the options the user cannot change, and the
/// accessibility features the user may toggle.
struct SingleAppModeForm: PayloadForm {
    struct Toggle {
        let name: String
        let label: String
        let checked: Bool
    }

    var app = ""
    var options: [Toggle] = []
    var userOptions: [Toggle] = []
    var errors: [String: String] = [:]

    init(_ payload: Payload?) {
        guard let lock = payload?.settings(as: SingleAppMode.self) else {
            self.init(SingleAppMode(appIdentifier: ""))
            return
        }
        self.init(lock)
    }

    private init(_ lock: SingleAppMode) {
        app = lock.appIdentifier
        options = SingleAppMode.optionFields.map {
            Toggle(name: "option." + $0.appleKey, label: $0.label, checked: lock.options[keyPath: $0.keyPath])
        }
        userOptions = SingleAppMode.userEnabledOptionFields.map {
            Toggle(name: "user." + $0.appleKey, label: $0.label, checked: lock.userEnabledOptions[keyPath: $0.keyPath])
        }
    }

    init(_ form: FormFields) {
        self.init(Self.payload(from: form))
    }

    private static func payload(from form: FormFields) -> SingleAppMode {
        var lock = SingleAppMode(appIdentifier: form["app"].trimmingWhitespace())
        for field in SingleAppMode.optionFields {
            lock.options[keyPath: field.keyPath] = form.isChecked("option." + field.appleKey)
        }
        for field in SingleAppMode.userEnabledOptionFields {
            lock.userEnabledOptions[keyPath: field.keyPath] = form.isChecked("user." + field.appleKey)
        }
        return lock
    }

    static func submitted(_ form: FormFields) -> Submission {
        let lock = payload(from: form)
        return Submission(payload: Payload(lock), errors: lock.validate())
    }
}

/// How pages show SingleAppMode payloads; its form is `SingleAppModeForm`.
extension SingleAppMode: PayloadPresentation {
    static var formType: any PayloadForm.Type { SingleAppModeForm.self }

    var summaryLines: [String] {
        let on = SingleAppMode.optionFields.filter { options[keyPath: $0.keyPath] }.map(\.label)
        let user = SingleAppMode.userEnabledOptionFields.filter { userEnabledOptions[keyPath: $0.keyPath] }.map(\.label)
        return ["Locks to \(appIdentifier)",
                on.isEmpty ? "No options set" : "Options: " + on.joined(separator: ", "),
                user.isEmpty ? "The user may toggle nothing" : "The user may toggle: " + user.joined(separator: ", ")]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "App", value: appIdentifier)]
            + SingleAppMode.optionFields.map { PayloadFields.Field(label: $0.label, value: PayloadFields.yes(options[keyPath: $0.keyPath])) }
            + SingleAppMode.userEnabledOptionFields.map {
                PayloadFields.Field(label: "The user may toggle \($0.label)", value: PayloadFields.yes(userEnabledOptions[keyPath: $0.keyPath]))
            }
    }
}
