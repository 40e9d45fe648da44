import Foundation

/// Any JSON value: for comparing payloads field by field (the profile diff), and for parts
/// of an API body whose shape depends on another field, to compare what was sent with what
/// was understood.
public indirect enum JSONValue: Codable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let flag = try? container.decode(Bool.self) { self = .bool(flag) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let text = try? container.decode(String.self) { self = .string(text) }
        else if let items = try? container.decode([JSONValue].self) { self = .array(items) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let flag): try container.encode(flag)
        case .number(let number): try container.encode(number)
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        case .object(let fields): try container.encode(fields)
        }
    }

    /// The dotted path of the first string (value or key) holding a character no stored text
    /// may hold (`PlainText`, multi-line rules), or nil: one check for every field of every body.
    public func pathOfControlCharacter(at prefix: String = "") -> String? {
        let isClean = { (text: String) in PlainText.problem(text, lines: .multiple) == nil }
        switch self {
        case .string(let text): return isClean(text) ? nil : prefix
        case .array(let items):
            return items.enumerated().lazy.compactMap { index, item in
                item.pathOfControlCharacter(at: prefix.isEmpty ? "\(index)" : "\(prefix).\(index)")
            }.first
        case .object(let fields):
            for key in fields.keys.sorted() {
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                if !isClean(key) { return path }
                if let found = fields[key]?.pathOfControlCharacter(at: path) { return found }
            }
            return nil
        case .null, .bool, .number: return nil
        }
    }

    /// Dotted paths of the object keys in `self` (with a non-null value) that `understood`
    /// does not have: what a decoder skipped without saying so. Arrays compare item by item.
    public func keysMissing(from understood: JSONValue, at prefix: String = "") -> [String] {
        switch (self, understood) {
        case (.object(let sent), .object(let kept)):
            return sent.keys.sorted().flatMap { key -> [String] in
                let path = prefix.isEmpty ? key : "\(prefix).\(key)"
                guard let value = sent[key], value != .null else { return [] }
                guard let counterpart = kept[key] else { return [path] }
                return value.keysMissing(from: counterpart, at: path)
            }
        case (.array(let sent), .array(let kept)):
            return zip(sent, kept).enumerated().flatMap { index, pair in
                pair.0.keysMissing(from: pair.1, at: prefix.isEmpty ? "\(index)" : "\(prefix).\(index)")
            }
        default:
            return []
        }
    }
}
