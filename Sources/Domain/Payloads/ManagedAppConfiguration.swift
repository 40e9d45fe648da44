import Foundation

/// The type of one managed app configuration key.
public enum ConfigValueType: String, CaseIterable, Codable, Sendable {
    case string, integer, real, boolean, date, stringArray

    public var displayName: String {
        switch self {
        case .string: "Text"
        case .integer: "Whole number"
        case .real: "Number"
        case .boolean: "Yes/No"
        case .date: "Date"
        case .stringArray: "List of text"
        }
    }
}

/// A typed value of a configuration key.
public enum ConfigValue: Codable, Equatable, Sendable {
    case string(String)
    case integer(Int)
    case real(Double)
    case boolean(Bool)
    case date(Date)
    case stringArray([String])

    public var type: ConfigValueType {
        switch self {
        case .string: .string
        case .integer: .integer
        case .real: .real
        case .boolean: .boolean
        case .date: .date
        case .stringArray: .stringArray
        }
    }

    /// Reads form text as `type`: numbers with a "." decimal point, booleans as true/false,
    /// dates as ISO 8601 (a day or a full time), lists one item per line.
    public static func parse(_ text: String, as type: ConfigValueType) -> Result<ConfigValue, ValueProblem> {
        let trimmed = text.trimmingWhitespace()
        switch type {
        case .string: return .success(.string(text))
        case .integer: return Int(trimmed).map { .success(.integer($0)) } ?? .failure(.init("Enter a whole number, such as 30."))
        case .real: return DecimalNumber.parse(trimmed).map { .success(.real($0)) } ?? .failure(.init("Enter a number, such as 2.5."))
        case .boolean:
            switch trimmed.lowercased() {
            case "true", "yes": return .success(.boolean(true))
            case "false", "no": return .success(.boolean(false))
            default: return .failure(.init("Enter true or false."))
            }
        case .date:
            if let date = ISOTimestamp.parse(trimmed) ?? ISOTimestamp.day(trimmed) { return .success(.date(date)) }
            return .failure(.init("Enter a date like 2026-01-31 or 2026-01-31T09:00:00Z."))
        case .stringArray:
            return .success(.stringArray(text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }))
        }
    }

    public struct ValueProblem: Error, Equatable, Sendable {
        public let message: String
        init(_ message: String) { self.message = message }
    }

    /// The value as Apple's property list types.
    public var propertyList: PropertyList {
        switch self {
        case .string(let text): .string(text)
        case .integer(let number): .integer(number)
        case .real(let number): .real(number)
        case .boolean(let flag): .boolean(flag)
        case .date(let date): .date(date)
        case .stringArray(let items): .array(items.map(PropertyList.string))
        }
    }
}

/// One key the app reads, with the constraints its value must meet.
public struct ConfigKey: Codable, Equatable, Sendable {
    public var name: String
    public var type: ConfigValueType
    public var required: Bool
    public var minimum: Double?
    public var maximum: Double?
    public var allowedValues: [String]
    public var pattern: String?
    public var value: ConfigValue?
    /// What the key means, from the app's specfile; shown beside the value, not sent to the app.
    public var description: String?

    public init(name: String, type: ConfigValueType, required: Bool = false, minimum: Double? = nil, maximum: Double? = nil,
                allowedValues: [String] = [], pattern: String? = nil, value: ConfigValue? = nil, description: String? = nil) {
        self.name = name
        self.type = type
        self.required = required
        self.minimum = minimum
        self.maximum = maximum
        self.allowedValues = allowedValues
        self.pattern = pattern
        self.value = value
        self.description = description
    }
}

/// Managed app configuration for one app: the `com.apple.configuration.managed` dictionary.
public struct ManagedAppConfiguration: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("managed-app-config", displayName: "Managed app configuration",
                                         summary: "Typed settings one managed app reads from com.apple.configuration.managed.",
                                         combination: .nearestGroupPerApp, settings: ManagedAppConfiguration.self)

    public var appIdentifier: String
    public var keys: [ConfigKey]

    public static let maximumDescriptionLength = 1_000

    public init(appIdentifier: String, keys: [ConfigKey] = []) {
        self.appIdentifier = appIdentifier
        self.keys = keys
    }

    /// The dictionary the app receives: keys that have a value, in order.
    public var dictionary: PropertyList {
        .dictionary(keys.compactMap { key in key.value.map { (key.name, $0.propertyList) } })
    }

    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        errors["app"] = BundleID.problem(appIdentifier)
        var names: Set<String> = []
        for (index, key) in keys.enumerated() {
            let field = "keys.\(index)"
            let nameAllowed = { (c: Character) in c.isASCII && (c.isLetter || c.isNumber || "_.-".contains(c)) }
            if key.name.isEmpty || !key.name.allSatisfy(nameAllowed) {
                errors["\(field).name"] = "Name the key with letters, digits, _ . or -."
            } else if !names.insert(key.name).inserted {
                errors["\(field).name"] = "Another key is already called \(key.name)."
            }
            if let pattern = key.pattern, !pattern.isEmpty {
                if let problem = PlainText.problem(pattern) { errors["\(field).pattern"] = problem }
                else {
                    // Checked by a matcher whose work is bounded (no backtracking): an admin's
                    // pattern must not cost seconds per save, whatever the value.
                    do { _ = try BoundedPattern(pattern) } catch { errors["\(field).pattern"] = error.message }
                }
            }
            for (bound, limit) in [("minimum", key.minimum), ("maximum", key.maximum)] where limit.map({ !$0.isFinite }) ?? false {
                errors["\(field).\(bound)"] = "Enter a finite number, or leave it empty."
            }
            if let minimum = key.minimum, let maximum = key.maximum, minimum > maximum {
                errors["\(field).maximum"] = "The maximum must not be below the minimum."
            }
            if let problem = key.allowedValues.lazy.compactMap({ PlainText.problem($0) }).first { errors["\(field).allowed"] = problem }
            if let description = key.description {
                if let problem = PlainText.problem(description, lines: .multiple) { errors["\(field).description"] = problem }
                else if PlainText.length(description) > Self.maximumDescriptionLength { errors["\(field).description"] = "A description has at most \(Self.maximumDescriptionLength) characters." }
            }
            if let problem = Self.valueProblem(key) {
                errors["\(field).value"] = problem
            } else if key.value == nil, key.fallback == nil {
                errors["\(field).value"] = "Enter a value: this key's limits leave the app no default to fall back on."
            }
        }
        return Self.namingKeys(errors, names: keys.map(\.name))
    }

    /// Each message about a key (`keys.N.…`) begins with the key's name, so a refusal read
    /// away from its row — in a list of errors, an API answer, a long form — still says
    /// which key it is about. A key without a name is called by its number.
    public static func namingKeys(_ errors: ValidationErrors, names: [String]) -> ValidationErrors {
        var named = ValidationErrors()
        for (field, message) in errors.messages {
            let parts = field.split(separator: ".")
            guard parts.count >= 3, parts[0] == "keys", let index = Int(parts[1]), names.indices.contains(index) else {
                named[field] = message
                continue
            }
            let name = names[index].trimmingWhitespace()
            let label = name.isEmpty || parts[2] == "name" ? "Key \(index + 1)" : name
            named[field] = message.hasPrefix(label + ": ") ? message : "\(label): \(message)"
        }
        return named
    }

    /// `validate()`, plus the catalog's word on the app: the configuration reaches managed apps
    /// only, so an app the catalog lists as unmanaged (user-installed) is refused. Pass nil for
    /// an app the catalog does not list: the console cannot tell, so it does not refuse it.
    public func validate(appIsManaged: Bool?) -> ValidationErrors {
        var errors = validate()
        if appIsManaged == false, errors["app"] == nil {
            errors["app"] = "The catalog lists \(appIdentifier) as unmanaged: app configuration reaches managed apps only."
        }
        return errors
    }

    static func valueProblem(_ key: ConfigKey) -> String? {
        guard let value = key.value else { return key.required ? "This key is required: enter a value." : nil }
        guard value.type == key.type else { return "The value must be of type \(key.type.displayName)." }
        let inRange = { (number: Double, what: String) -> String? in
            if let minimum = key.minimum, number < minimum { return "\(what) must be at least \(NumberText.plain(minimum))." }
            if let maximum = key.maximum, number > maximum { return "\(what) must be at most \(NumberText.plain(maximum))." }
            return nil
        }
        let allowed = { (text: String) -> String? in
            key.allowedValues.isEmpty || key.allowedValues.contains(text) ? nil
                : "Choose one of: \(key.allowedValues.joined(separator: ", "))."
        }
        switch value {
        case .integer(let number): return inRange(Double(number), "The value") ?? allowed(String(number))
        case .real(let number):
            guard number.isFinite else { return "Enter a finite number." }
            return inRange(number, "The value") ?? allowed(NumberText.plain(number))
        case .string(let text):
            if let problem = PlainText.problem(text, lines: .multiple) { return problem }
            if let pattern = key.pattern, !pattern.isEmpty, let compiled = try? BoundedPattern(pattern), !compiled.matchesWhole(text) {
                return "The value must match the pattern \(pattern)."
            }
            return inRange(Double(text.count), "The length") ?? allowed(text)
        case .stringArray(let items):
            if let problem = items.lazy.compactMap({ PlainText.problem($0) }).first { return problem }
            return inRange(Double(items.count), "The number of items") ?? items.lazy.compactMap(allowed).first
        case .boolean, .date: return nil
        }
    }
}

extension PayloadKind {
    public static var managedAppConfig: PayloadKind { ManagedAppConfiguration.kind }
}

extension ManagedAppConfiguration: SDKPayloadSettings {
    /// The nearest group's configuration for each app.
    public static func combine(_ found: [Sourced<ManagedAppConfiguration>]) -> Combined<ManagedAppConfiguration> {
        var configuredApps: Set<String> = []
        return Combined(effective: found.filter { configuredApps.insert($0.value.appIdentifier).inserted })
    }

    /// A device's stored policy holds one configuration per app, under `appConfigurations`.
    public static var policyKey: String { "appConfigurations" }

    public static func encodeHeld(_ held: [ManagedAppConfiguration], to container: inout KeyedEncodingContainer<PolicyKey>) throws {
        try container.encode(held, forKey: PolicyKey(policyKey))
    }

    public static func decodeHeld(from container: KeyedDecodingContainer<PolicyKey>) throws -> [ManagedAppConfiguration] {
        try container.decodeIfPresent([ManagedAppConfiguration].self, forKey: PolicyKey(policyKey)) ?? []
    }

    public static let sdkKey = "ManagedAppConfiguration"
    /// It reaches devices as an MDM command, not in the `.mobileconfig`.
    public static var travelsInMobileConfig: Bool { false }

    public var sdkEntry: PropertyList {
        .dictionary([("Identifier", .string(appIdentifier)), ("Configuration", dictionary)])
    }

    /// Not in this console's own exports, but read when a file carries it: each value's type
    /// is the key's type.
    public init(sdkEntry entry: SDKEntry) throws {
        let configuration = try entry.dictionary("Configuration")
        self.init(appIdentifier: try entry.string("Identifier"), keys: try configuration.pairs.map { name, value in
            guard let typed = ConfigValue(value) else {
                throw SDKEntry.Unreadable("Configuration.\(name.clipped(to: 60)) is a value the form cannot hold (a dictionary, data or a mixed list).")
            }
            return ConfigKey(name: name, type: typed.type, value: typed)
        })
    }
}
