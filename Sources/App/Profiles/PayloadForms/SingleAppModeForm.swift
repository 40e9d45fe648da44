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
        guard case .singleAppMode(let lock)? = payload else {
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
        return Submission(payload: .singleAppMode(lock), errors: lock.validate())
    }
}
