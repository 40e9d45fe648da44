import Foundation

/// Reads an AppConfig Community specfile: root `managedAppConfiguration` with `version`,
/// `bundleId`, a `dict` of typed keys (`defaultValue`, `constraint`) and an optional
/// `presentation` whose fields give each key's label and description. The XML goes through
/// `XMLReader`, so the file can declare no entities and nest only so deep.
public enum AppConfigSpecReader {
    public static let maximumBytes = 1_048_576
    public static let maximumKeys = 500

    public static func read(_ text: String) throws(ImportProblem) -> AppConfigSpec {
        guard text.utf8.count <= maximumBytes else { throw ImportProblem(line: nil, "A specfile holds at most 1 MB.") }
        let root: ParsedXMLElement
        do { root = try XMLReader.parse(text) } catch { throw ImportProblem(line: error.line, "\(error.reason) (column \(error.column)).") }
        guard root.name == "managedAppConfiguration" else {
            throw ImportProblem(line: root.line, "The root element is <\(root.name)>; a specfile's is <managedAppConfiguration>.")
        }
        guard let versionElement = root.child(named: "version") else { throw ImportProblem(line: root.line, "The specfile has no <version>.") }
        guard let version = Int(versionElement.trimmedText), (1...99_999).contains(version) else {
            throw ImportProblem(line: versionElement.line, "<version> is a whole number from 1 to 99999.")
        }
        guard let bundleElement = root.child(named: "bundleId") else { throw ImportProblem(line: root.line, "The specfile has no <bundleId>.") }
        if let problem = BundleID.problem(bundleElement.trimmedText) { throw ImportProblem(line: bundleElement.line, problem) }
        guard let dict = root.child(named: "dict") else { throw ImportProblem(line: root.line, "The specfile has no <dict> of keys.") }
        guard !dict.children.isEmpty else { throw ImportProblem(line: dict.line, "The <dict> describes no key.") }
        guard dict.children.count <= maximumKeys else { throw ImportProblem(line: dict.line, "A specfile describes at most \(maximumKeys) keys.") }

        let texts = PresentationTexts(root.child(named: "presentation"))
        var keys: [ConfigKey] = []
        var skipped: [AppConfigSpec.Skipped] = []
        var names: Set<String> = []
        for element in dict.children {
            guard let name = element.attribute("keyName"), !name.isEmpty else {
                throw ImportProblem(line: element.line, "<\(element.name)> has no keyName.")
            }
            guard names.insert(name).inserted else { throw ImportProblem(line: element.line, "The key \(name) is described twice.") }
            switch SpecKeyReader.read(element, name: name, description: texts.description(of: name)) {
            case .key(let key): keys.append(key)
            case .skipped(let reason): skipped.append(.init(keyName: name, line: element.line, reason: reason))
            case .problem(let problem): throw problem
            }
        }
        let spec = AppConfigSpec(bundleID: bundleElement.trimmedText, version: version, keys: keys, skipped: skipped)
        // The keys must make a configuration the console accepts: names, patterns, bounds and
        // defaults within their own constraints.
        // A key without a default is checked for its definition only: its value is the admin's.
        let errors = ManagedAppConfiguration(appIdentifier: spec.bundleID, keys: keys).validate().messages
        let relevant = errors.filter { field, _ in
            let parts = field.split(separator: ".")
            guard parts.count == 3, parts[0] == "keys", let index = Int(parts[1]) else { return false }
            return parts[2] != "value" || keys[index].value != nil
        }
        if let (field, message) = relevant.sorted(by: { $0.key < $1.key }).first, let index = Int(field.split(separator: ".")[1]) {
            let line = dict.children.first { $0.attribute("keyName") == keys[index].name }?.line
            throw ImportProblem(line: line, "\(keys[index].name): \(message)")
        }
        return spec
    }
}

/// Labels and descriptions from `presentation`, in its default locale (or the first given).
struct PresentationTexts {
    private var descriptions: [String: String] = [:]

    init(_ presentation: ParsedXMLElement?) {
        guard let presentation else { return }
        let locale = presentation.attribute("defaultLocale")
        let fields = presentation.children(named: "field") + presentation.children(named: "fieldGroup").flatMap { $0.children(named: "field") }
        for field in fields {
            guard let key = field.attribute("keyName") else { continue }
            let label = Self.text(field.child(named: "label"), locale: locale)
            let description = Self.text(field.child(named: "description"), locale: locale)
            let joined = [label, description].compactMap { $0 }.joined(separator: ": ")
            if !joined.isEmpty { descriptions[key] = joined }
        }
    }

    func description(of key: String) -> String? { descriptions[key] }

    private static func text(_ element: ParsedXMLElement?, locale: String?) -> String? {
        guard let languages = element?.children(named: "language"), !languages.isEmpty else { return nil }
        let chosen = languages.first { $0.attribute("value") == locale } ?? languages[0]
        let text = chosen.trimmedText
        return text.isEmpty ? nil : String(text.prefix(500))
    }
}
