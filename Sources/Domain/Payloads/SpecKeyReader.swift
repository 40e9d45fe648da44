import Foundation

/// One key element of a specfile's `dict`, read into the console's `ConfigKey`.
enum SpecKeyReader {
    enum Outcome {
        case key(ConfigKey)
        case skipped(String)
        case problem(ImportProblem)
    }

    static let types: [String: ConfigValueType] = [
        "string": .string, "stringArray": .stringArray, "integer": .integer, "float": .real, "boolean": .boolean, "date": .date,
    ]

    static func read(_ element: ParsedXMLElement, name: String, description: String?) -> Outcome {
        guard let type = types[element.name] else {
            if element.name == "integerArray" || element.name == "floatArray" {
                return .skipped("Lists of numbers (\(element.name)) are not a type the console's forms offer yet.")
            }
            return .problem(ImportProblem(line: element.line, "<\(element.name)> is not a key type of the format (string, stringArray, integer, float, boolean, date)."))
        }
        var key = ConfigKey(name: name, type: type, description: description)
        if let constraint = element.child(named: "constraint") {
            if let problem = apply(constraint, to: &key) { return .problem(problem) }
        }
        if let defaults = element.child(named: "defaultValue") {
            if defaults.child(named: "userVariable") != nil || defaults.child(named: "deviceVariable") != nil {
                let variable = (defaults.child(named: "userVariable") ?? defaults.child(named: "deviceVariable"))?.attribute("value") ?? "a variable"
                key.description = [key.description, "The specfile fills this from \(variable) on each device; the console sends the value entered here."]
                    .compactMap { $0 }.joined(separator: " ")
            } else {
                let values = defaults.children(named: "value")
                switch defaultValue(values.map(\.trimmedText), type: type) {
                case .success(let value): key.value = value
                case .failure(let problem): return .problem(ImportProblem(line: values.first?.line ?? defaults.line, "\(name): \(problem.message)"))
                }
            }
        }
        return .key(key)
    }

    /// `nullable`, `min`, `max`, `pattern` and the allowed `values`.
    private static func apply(_ constraint: ParsedXMLElement, to key: inout ConfigKey) -> ImportProblem? {
        func problem(_ reason: String) -> ImportProblem { ImportProblem(line: constraint.line, "\(key.name): \(reason)") }
        if let nullable = constraint.attribute("nullable") {
            guard let flag = Bool(nullable) else { return problem("nullable is true or false.") }
            key.required = !flag
        }
        for (attribute, keyPath) in [("min", \ConfigKey.minimum), ("max", \ConfigKey.maximum)] {
            guard let text = constraint.attribute(attribute) else { continue }
            guard key.type != .date else { continue }  // date bounds have no place in the console's keys
            guard let number = DecimalNumber.parse(text) else { return problem("\(attribute) is a number, not \(text.clipped(to: 30)).") }
            key[keyPath: keyPath] = number
        }
        if let pattern = constraint.attribute("pattern") {
            guard key.type == .string || key.type == .stringArray else { return problem("a pattern constrains text keys only.") }
            key.pattern = pattern
            // The pattern overrides min and max for text (the format's rule).
            key.minimum = nil
            key.maximum = nil
        }
        if let values = constraint.child(named: "values") {
            key.allowedValues = values.children(named: "value").map(\.trimmedText)
        }
        return nil
    }

    private static func defaultValue(_ values: [String], type: ConfigValueType) -> Result<ConfigValue, ConfigValue.ValueProblem> {
        if type == .stringArray { return .success(.stringArray(values)) }
        guard values.count == 1 else { return .failure(.init("a \(type.displayName.lowercased()) key has one default value.")) }
        let text = values[0]
        switch type {
        case .boolean:
            // The format writes booleans as true or false only; the form's yes/no is not allowed.
            guard let flag = Bool(text) else { return .failure(.init("the default \(text.clipped(to: 30)) is not true or false.")) }
            return .success(.boolean(flag))
        case .string:
            return .success(.string(text))
        default:
            return ConfigValue.parse(text, as: type).mapError { .init("the default \(text.clipped(to: 30)) is not valid: \($0.message)") }
        }
    }
}
