import Domain
import Foundation

/// Managed app configuration for one app: typed keys with optional constraints, each value
/// checked against them, and a preview of the dictionary the app receives.
struct ManagedAppConfigForm: PayloadForm {
    struct Choice {
        let value: String
        let label: String
        let selected: Bool
    }

    struct KeyRow {
        let index: Int
        let number: Int
        let name: String
        let types: [Choice]
        let required: Bool
        let minimum: String
        let maximum: String
        let allowed: String
        let pattern: String
        let value: String
        /// From the app's specfile: what the key means, carried through the form unchanged.
        let description: String
        let errors: [String: String]
        /// How the value is asked for: the type and limits decide (`ValueControl`).
        let control: ValueControl
    }

    /// The value's input as the key's type and limits present it — a checkbox for a boolean,
    /// a select for a list of allowed values, a number input with the limits for a number, a
    /// text box otherwise — each a plain form control, so the form works without JavaScript.
    struct ValueControl {
        struct Option {
            let value: String
            let label: String
            let selected: Bool
        }

        let isCheckbox: Bool
        let isChecked: Bool
        let isSelect: Bool
        let options: [Option]
        let isNumber: Bool
        let step: String
        let min: String?
        let max: String?
        let isText: Bool
        /// " (from 1 to 60)", " (at least 1)", " (at most 60)" after a number's label.
        let limits: String

        init(type: ConfigValueType, required: Bool, minimum: String, maximum: String, allowed: String, value: String) {
            let choices = ManagedAppConfigForm.allowedValues(allowed)
            isCheckbox = type == .boolean
            isChecked = value.trimmingWhitespace().lowercased() == "true"
            isSelect = !isCheckbox && !choices.isEmpty && type != .stringArray && type != .date
            // A value outside the list stays offered, so the refusal beside it shows what was sent.
            let listed = choices + (value.isEmpty || choices.contains(value) ? [] : [value])
            options = isSelect ? (required ? [] : [Option(value: "", label: "Not set (the app's default)", selected: value.isEmpty)])
                + listed.map { Option(value: $0, label: $0, selected: $0 == value) } : []
            isNumber = !isCheckbox && !isSelect && (type == .integer || type == .real)
            step = type == .integer ? "1" : "any"
            min = isNumber && DecimalNumber.parse(minimum.trimmingWhitespace()) != nil ? minimum.trimmingWhitespace() : nil
            max = isNumber && DecimalNumber.parse(maximum.trimmingWhitespace()) != nil ? maximum.trimmingWhitespace() : nil
            isText = !isCheckbox && !isSelect && !isNumber
            limits = switch (min, max) {
            case let (low?, high?): " (from \(low) to \(high))"
            case let (low?, nil): " (at least \(low))"
            case let (nil, high?): " (at most \(high))"
            case (nil, nil): ""
            }
        }
    }

    var app = ""
    var rows: [KeyRow] = []
    var preview: String?
    var errors: [String: String] = [:] {
        didSet { rows = rows.map { Self.row($0, errors: errors) } }
    }

    typealias RawKey = (name: String, type: String, required: Bool, minimum: String, maximum: String, allowed: String, pattern: String, value: String,
                        description: String)

    init(_ payload: Payload?) {
        guard let config = payload?.settings(as: ManagedAppConfiguration.self) else {
            rows = [Self.makeRow(0, ("", ConfigValueType.string.rawValue, false, "", "", "", "", "", ""))]
            return
        }
        app = config.appIdentifier
        rows = config.keys.enumerated().map { index, key in Self.makeRow(index, Self.raw(key)) }
        preview = config.dictionary.xmlDocument()
    }

    init(_ form: FormFields) {
        app = form["app"]
        var raw = Self.rawKeys(form)
        let intent = form["intent"]
        if intent == "add" {
            raw.append(("", ConfigValueType.string.rawValue, false, "", "", "", "", "", ""))
        } else if intent.hasPrefix("remove."), let index = Int(intent.dropFirst(7)), raw.indices.contains(index) {
            raw.remove(at: index)
        }
        rows = raw.enumerated().map { Self.makeRow($0.offset, $0.element) }
        let parsed = Self.parse(app: app, raw)
        if parsed.errors.isEmpty, parsed.config.validate().isEmpty { preview = parsed.config.dictionary.xmlDocument() }
    }

    static func submitted(_ form: FormFields) -> Submission {
        let intent = form["intent"]
        if !intent.isEmpty && intent != "save" { return Submission(payload: nil, errors: ValidationErrors(), isRevision: true) }
        let parsed = parse(app: form["app"], rawKeys(form))
        var errors = parsed.errors
        errors.merge(parsed.config.validate())
        return Submission(payload: parsed.errors.isEmpty ? Payload(parsed.config) : nil, errors: errors)
    }

    /// A stored key as the form's text fields hold it.
    static func raw(_ key: ConfigKey) -> RawKey {
        (key.name, key.type.rawValue, key.required, key.minimum.map(Self.format) ?? "", key.maximum.map(Self.format) ?? "",
         key.allowedValues.joined(separator: ", "), key.pattern ?? "", key.value.map(Self.text) ?? "", key.description ?? "")
    }

    /// Replaces the form's key rows with `rows`, as if they had been typed: what "use the
    /// specfile's keys" does before the form is shown again. The reverse of `rawKeys`.
    static func setRawKeys(_ rows: [RawKey], in form: inout FormFields) {
        form.setAll("keyName", rows.map(\.name))
        form.setAll("keyType", rows.map(\.type))
        form.setAll("keyRequired", rows.map { $0.required ? "yes" : "no" })
        form.setAll("keyMinimum", rows.map(\.minimum))
        form.setAll("keyMaximum", rows.map(\.maximum))
        form.setAll("keyAllowed", rows.map(\.allowed))
        form.setAll("keyPattern", rows.map(\.pattern))
        form.setAll("keyValue", [])
        for (index, row) in rows.enumerated() { form.setAll("keyValue.\(index)", [row.value]) }
        form.setAll("keyDescription", rows.map(\.description))
    }

    static func rawKeys(_ form: FormFields) -> [RawKey] {
        let names = form.all("keyName")
        func value(_ field: String, _ index: Int) -> String {
            let values = form.all(field)
            return values.indices.contains(index) ? values[index] : ""
        }
        // Each value has a name of its own (`keyValue.N`): an unticked checkbox sends nothing,
        // which would shift every later value in one shared list. Its hidden "false" comes
        // first, so the last value sent is the answer. A list named `keyValue` is still read.
        func keyValue(_ index: Int) -> String { form.all("keyValue.\(index)").last ?? value("keyValue", index) }
        return names.indices.map { index in
            (names[index], value("keyType", index), value("keyRequired", index) == "yes", value("keyMinimum", index),
             value("keyMaximum", index), value("keyAllowed", index), value("keyPattern", index), keyValue(index),
             value("keyDescription", index))
        }
    }

    /// Text fields into typed keys; a number or value that cannot be read is reported on its field.
    private static func parse(app: String, _ raw: [RawKey]) -> (config: ManagedAppConfiguration, errors: ValidationErrors) {
        var errors = ValidationErrors()
        var keys: [ConfigKey] = []
        for (index, key) in raw.enumerated() {
            let type = ConfigValueType(rawValue: key.type) ?? .string
            func number(_ text: String, _ field: String) -> Double? {
                let trimmed = text.trimmingWhitespace()
                guard !trimmed.isEmpty else { return nil }
                guard let value = DecimalNumber.parse(trimmed) else {
                    errors["keys.\(index).\(field)"] = "Enter a number, or leave it empty."
                    return nil
                }
                return value
            }
            var value: ConfigValue?
            if !key.value.trimmingWhitespace().isEmpty {
                switch ConfigValue.parse(key.value, as: type) {
                case .success(let parsed): value = parsed
                case .failure(let problem): errors["keys.\(index).value"] = problem.message
                }
            }
            let allowed = allowedValues(key.allowed)
            keys.append(ConfigKey(name: key.name.trimmingWhitespace(), type: type, required: key.required,
                                  minimum: number(key.minimum, "minimum"), maximum: number(key.maximum, "maximum"),
                                  allowedValues: allowed, pattern: key.pattern.isEmpty ? nil : key.pattern, value: value,
                                  description: key.description.isEmpty ? nil : key.description))
        }
        return (ManagedAppConfiguration(appIdentifier: app.trimmingWhitespace(), keys: keys),
                ManagedAppConfiguration.namingKeys(errors, names: keys.map(\.name)))
    }

    static func allowedValues(_ text: String) -> [String] {
        text.split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    private static func makeRow(_ index: Int, _ key: RawKey) -> KeyRow {
        KeyRow(index: index, number: index + 1, name: key.name,
               types: ConfigValueType.allCases.map { Choice(value: $0.rawValue, label: $0.displayName, selected: $0.rawValue == key.type) },
               required: key.required, minimum: key.minimum, maximum: key.maximum, allowed: key.allowed, pattern: key.pattern,
               value: key.value, description: key.description, errors: [:],
               control: ValueControl(type: ConfigValueType(rawValue: key.type) ?? .string, required: key.required, minimum: key.minimum,
                                     maximum: key.maximum, allowed: key.allowed, value: key.value))
    }

    private static func row(_ row: KeyRow, errors: [String: String]) -> KeyRow {
        let prefix = "keys.\(row.index)."
        var own: [String: String] = [:]
        for (key, message) in errors where key.hasPrefix(prefix) { own[String(key.dropFirst(prefix.count))] = message }
        return KeyRow(index: row.index, number: row.number, name: row.name, types: row.types, required: row.required, minimum: row.minimum,
                      maximum: row.maximum, allowed: row.allowed, pattern: row.pattern, value: row.value, description: row.description, errors: own,
                      control: row.control)
    }

    private static func format(_ number: Double) -> String { GeofenceForm.format(number) }

    private static func text(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .real(let number): String(number)
        case .boolean(let flag): flag ? "true" : "false"
        case .date(let date): date.formatted(.iso8601)
        case .stringArray(let items): items.joined(separator: "\n")
        }
    }
}

/// How pages show ManagedAppConfiguration payloads; its form is `ManagedAppConfigForm`.
extension ManagedAppConfiguration: PayloadPresentation {
    static var formType: any PayloadForm.Type { ManagedAppConfigForm.self }

    var summaryLines: [String] {
        ["\(Counted.phrase(keys.count, "key")) for \(appIdentifier)"]
    }

    var labelledFields: [PayloadFields.Field] {
        [PayloadFields.Field(label: "App", value: appIdentifier)] + keys.map { key in
            PayloadFields.Field(label: "Key “\(key.name)” (\(key.type.displayName.lowercased())\(key.required ? ", required" : ""))",
                                value: key.value.map(PayloadFields.text) ?? "Not set")
        }
    }
}
