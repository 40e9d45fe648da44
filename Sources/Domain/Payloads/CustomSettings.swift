/// Custom settings: raw text the SDK hands to the app as it is (`AWCustomPayload`); the app
/// parses it. The console says which format the text reads as and, for XML and JSON, checks
/// it parses, so a typo is found here rather than on every device.
public struct CustomSettings: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("custom-settings", displayName: "Custom settings",
                                         summary: "Raw text (XML, JSON, key-value, CSV or plain) SDK apps receive as it is.",
                                         combination: .nearestGroup, settings: CustomSettings.self)
    public static let maximumBytes = 65_536

    public var text: String

    public init(text: String) {
        self.text = text
    }

    public var format: CustomSettingsFormat { CustomSettingsFormat.detect(text) }

    /// The field path is `text`.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        if text.trimmingWhitespace().isEmpty {
            errors["text"] = "Enter the settings the app reads, or remove the payload."
        } else if text.utf8.count > Self.maximumBytes {
            errors["text"] = "Custom settings hold at most 64 KB; this text is \(text.utf8.count / 1024 + 1) KB."
        } else if let problem = PlainText.problem(text, lines: .multiple) {
            errors["text"] = problem
        } else if let problem = format.syntaxProblem(in: text) {
            errors["text"] = problem
        }
        return errors
    }
}

/// The formats custom settings come in (XML, JSON, key=value lines, CSV or plain text), told
/// apart by how the text reads.
public enum CustomSettingsFormat: String, CaseIterable, Sendable {
    case xml, json, keyValue, csv, plain

    public var displayName: String {
        switch self {
        case .xml: "XML"
        case .json: "JSON"
        case .keyValue: "Key-value pairs"
        case .csv: "CSV"
        case .plain: "Plain text"
        }
    }

    /// XML opens with `<`, JSON with `{` or `[`; key-value when every line is `key=value` or
    /// `key: value`; CSV when at least two lines have the same number of commas; else plain.
    public static func detect(_ text: String) -> CustomSettingsFormat {
        let trimmed = text.trimmingWhitespace()
        if trimmed.hasPrefix("<") { return .xml }
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return .json }
        let lines = trimmed.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !lines.isEmpty else { return .plain }
        let isPair = { (line: String) -> Bool in
            guard let separator = line.firstIndex(where: { $0 == "=" || $0 == ":" }) else { return false }
            let key = String(line[..<separator]).trimmingWhitespace()
            return !key.isEmpty && !key.contains(" ") && !key.contains(",")
        }
        if lines.allSatisfy(isPair) { return .keyValue }
        let commas = lines.map { $0.count(where: { $0 == "," }) }
        if lines.count >= 2, let first = commas.first, first > 0, commas.allSatisfy({ $0 == first }) { return .csv }
        return .plain
    }

    /// For XML and JSON, the first syntax error with its line and column; nil otherwise.
    public func syntaxProblem(in text: String) -> String? {
        switch self {
        case .xml:
            do {
                _ = try XMLReader.parse(text)
                return nil
            } catch {
                return "The XML does not parse at \(error.description)."
            }
        case .json:
            return JSONSyntax.check(text).map { "The JSON does not parse at \($0.description)." }
        case .keyValue, .csv, .plain:
            return nil
        }
    }
}

extension PayloadKind {
    public static var customSettings: PayloadKind { CustomSettings.kind }
}

extension CustomSettings: SDKPayloadSettings {
    public static let sdkKey = "CustomSettings"

    public var sdkEntry: PropertyList { .dictionary([("Settings", .string(text))]) }

    public init(sdkEntry entry: SDKEntry) throws {
        self.init(text: try entry.string("Settings"))
    }
}
