import Domain

/// The ASAM allowlist: an ordered list of bundle IDs. Adding, removing and moving entries are
/// form buttons, so the list can be edited without JavaScript.
struct ASAMAllowlistForm: PayloadForm {
    struct Entry {
        let index: Int
        let number: Int
        let value: String
        let error: String?
        let isFirst: Bool
    }

    var entries: [Entry] = []
    var errors: [String: String] = [:] {
        didSet {
            entries = Self.entries(entries.map(\.value), errors: errors)
            listError = errors["apps"]
        }
    }
    /// Stored, not computed: Mustache reads stored properties only.
    var listError: String?

    init(_ payload: Payload?) {
        guard let list = payload?.settings(as: ASAMAllowlist.self) else {
            entries = Self.entries([""], errors: [:])
            return
        }
        entries = Self.entries(list.appIdentifiers, errors: [:])
    }

    init(_ form: FormFields) {
        entries = Self.entries(Self.revised(form), errors: [:])
    }

    static func entries(_ values: [String], errors: [String: String]) -> [Entry] {
        values.enumerated().map { index, value in
            Entry(index: index, number: index + 1, value: value, error: errors["apps.\(index)"], isFirst: index == 0)
        }
    }

    /// The list after the button that was pressed: add a row, remove one, or move one up.
    static func revised(_ form: FormFields) -> [String] {
        var values = form.all("apps").map { $0.trimmingWhitespace() }
        let intent = form["intent"]
        if intent == "add" {
            values.append("")
        } else if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)), values.indices.contains(index) {
            values.remove(at: index)
        } else if intent.hasPrefix("up."), let index = Int(intent.dropFirst(3)), index > 0, values.indices.contains(index) {
            values.swapAt(index, index - 1)
        }
        return values.isEmpty ? [""] : values
    }

    static func submitted(_ form: FormFields) -> Submission {
        let isSave = form["intent"].isEmpty || form["intent"] == "save"
        // Blank rows are left-over "add" clicks, not entries.
        let list = ASAMAllowlist(appIdentifiers: revised(form).filter { !$0.isEmpty })
        return Submission(payload: Payload(list), errors: isSave ? list.validate() : ValidationErrors(), isRevision: !isSave)
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
