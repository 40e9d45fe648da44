import Domain

/// Required apps: an ordered list of bundle IDs (`AppListForm`).
struct RequiredAppsForm: AppListForm {
    var entries: [AppListEntry] = []
    var errors: [String: String] = [:] { didSet { show(errors) } }
    var listError: String?
    let idPrefix = "required-app"
    let legend = "Apps the console installs, in order"

    init() {}

    static func apps(in payload: Payload?) -> [String]? { payload?.settings(as: RequiredApps.self)?.appIdentifiers }

    static func settings(_ apps: [String]) -> (payload: Payload, errors: ValidationErrors) {
        let list = RequiredApps(appIdentifiers: apps)
        return (Payload(list), list.validate())
    }
}

/// How pages show RequiredApps payloads; its form is `RequiredAppsForm`.
extension RequiredApps: PayloadPresentation {
    static var formType: any PayloadForm.Type { RequiredAppsForm.self }

    var summaryLines: [String] {
        ["\(Counted.phrase(appIdentifiers.count, "app")) installed on real devices: " + appIdentifiers.joined(separator: ", ")]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Apps the console installs", value: appIdentifiers.joined(separator: ", "))]
    }
}
