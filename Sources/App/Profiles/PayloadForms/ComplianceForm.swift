import Domain

/// Compliance: a list of rules, each a row of what it checks (iOS or an app's version), how
/// it compares, the version and the action. Adding and removing rows are form buttons, so the
/// form works without JavaScript.
struct ComplianceForm: PayloadForm {
    /// One row as typed, so a refused form comes back exactly as it was.
    struct Row {
        var subject = "os-version"
        var app = ""
        var comparison = VersionComparison.lessThan.rawValue
        var version = ""
        var action = ComplianceRule.Action.block.rawValue
    }

    struct RowView {
        let index: Int
        let number: Int
        let subjects: [SelectOption]
        let isAppRule: Bool
        let app: String
        let comparisons: [SelectOption]
        let version: String
        let actions: [SelectOption]
        let appError: String?
        let versionError: String?
    }

    var rows: [RowView] = []
    var listError: String?
    private var typed: [Row] = []
    var errors: [String: String] = [:] {
        didSet { (rows, listError) = (Self.views(typed, errors: errors), errors["rules"]) }
    }

    init(_ payload: Payload?) {
        let rules = if let compliance = payload?.settings(as: Compliance.self) { compliance.rules } else { [ComplianceRule]() }
        typed = rules.isEmpty ? [Row()] : rules.map { rule in
            Row(subject: rule.appIdentifier == nil ? "os-version" : "app-version", app: rule.appIdentifier ?? "",
                comparison: rule.comparison.rawValue, version: rule.version, action: rule.action.rawValue)
        }
        rows = Self.views(typed, errors: [:])
    }

    init(_ form: FormFields) {
        typed = Self.revised(form)
        rows = Self.views(typed, errors: [:])
    }

    /// The rows as submitted, after the button pressed: add a row or remove one.
    static func revised(_ form: FormFields) -> [Row] {
        let subjects = form.all("subject"), apps = form.all("app"), comparisons = form.all("comparison")
        let versions = form.all("version"), actions = form.all("action")
        var rows = subjects.indices.map { index in
            Row(subject: subjects[index], app: apps.element(index)?.trimmingWhitespace() ?? "",
                comparison: comparisons.element(index) ?? "", version: versions.element(index)?.trimmingWhitespace() ?? "",
                action: actions.element(index) ?? "")
        }
        let intent = form["intent"]
        if intent == "add" {
            rows.append(Row())
        } else if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)), rows.indices.contains(index) {
            rows.remove(at: index)
        }
        return rows.isEmpty ? [Row()] : rows
    }

    private static func views(_ rows: [Row], errors: [String: String]) -> [RowView] {
        rows.enumerated().map { index, row in
            RowView(index: index, number: index + 1,
                    subjects: [SelectOption(value: "os-version", label: "iOS version", selected: row.subject == "os-version"),
                               SelectOption(value: "app-version", label: "App version", selected: row.subject == "app-version")],
                    isAppRule: row.subject == "app-version", app: row.app,
                    comparisons: SelectOption.cases(\VersionComparison.displayName, selected: row.comparison),
                    version: row.version,
                    actions: SelectOption.cases(\ComplianceRule.Action.displayName, selected: row.action),
                    appError: errors["rules.\(index).app"], versionError: errors["rules.\(index).version"] ?? errors["rules.\(index).choice"])
        }
    }

    static func submitted(_ form: FormFields) -> Submission {
        let isSave = form["intent"].isEmpty || form["intent"] == "save"
        let rows = revised(form)
        var errors = ValidationErrors()
        var rules: [ComplianceRule] = []
        for (index, row) in rows.enumerated() {
            guard let comparison = VersionComparison(rawValue: row.comparison), let action = ComplianceRule.Action(rawValue: row.action),
                  row.subject == "os-version" || row.subject == "app-version" else {
                errors["rules.\(index).choice"] = "Choose what the rule checks, how it compares and what it does."
                continue
            }
            rules.append(ComplianceRule(subject: row.subject == "os-version" ? .operatingSystem : .app(row.app),
                                        comparison: comparison, version: row.version, action: action))
        }
        guard isSave else { return Submission(payload: nil, errors: ValidationErrors(), isRevision: true) }
        let compliance = Compliance(rules: rules)
        if errors.isEmpty { errors = compliance.validate() }
        return Submission(payload: errors.isEmpty ? Payload(compliance) : nil, errors: errors)
    }
}

extension Array {
    fileprivate func element(_ index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}

/// How pages show Compliance payloads; its form is `ComplianceForm`.
extension Compliance: PayloadPresentation {
    static var formType: any PayloadForm.Type { ComplianceForm.self }

    var summaryLines: [String] {
        rules.map { "\($0.describe()): \($0.action.displayName.lowercased())" }
    }

    var labelledFields: [PayloadFields.Field] {
        rules.enumerated().map { index, rule in
            PayloadFields.Field(label: "Rule \(index + 1)", value: "\(rule.describe()): \(rule.action.displayName.lowercased())")
        }
    }
}
