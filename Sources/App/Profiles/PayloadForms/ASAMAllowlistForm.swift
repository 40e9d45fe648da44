import Domain

/// The ASAM allowlist: an ordered list of bundle IDs (`AppListForm`).
struct ASAMAllowlistForm: AppListForm {
    var entries: [AppListEntry] = []
    var errors: [String: String] = [:] { didSet { show(errors) } }
    var listError: String?
    /// What the shared list markup names its inputs by, and calls the list.
    let idPrefix = "asam-app"
    let legend = "Apps allowed to lock the device, in order"

    init() {}

    static func apps(in payload: Payload?) -> [String]? { payload?.settings(as: ASAMAllowlist.self)?.appIdentifiers }

    static func settings(_ apps: [String]) -> (payload: Payload, errors: ValidationErrors) {
        let list = ASAMAllowlist(appIdentifiers: apps)
        return (Payload(list), list.validate())
    }
}

/// How pages show ASAMAllowlist payloads; its form is `ASAMAllowlistForm`.
extension ASAMAllowlist: PayloadPresentation {
    static var formType: any PayloadForm.Type { ASAMAllowlistForm.self }

    var summaryLines: [String] {
        // An effective list can be empty when profiles' lists share no app.
        if appIdentifiers.isEmpty { return ["No app may lock the device"] }
        return ["\(Counted.phrase(appIdentifiers.count, "app")) may lock the device: " + appIdentifiers.joined(separator: ", ")]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "Apps that may lock the device", value: appIdentifiers.isEmpty ? "None" : appIdentifiers.joined(separator: ", "))]
    }
}
