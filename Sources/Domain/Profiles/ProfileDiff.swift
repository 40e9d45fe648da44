import Foundation

/// A field-by-field comparison of two profile versions, for the history page.
public struct ProfileChange: Equatable, Sendable {
    /// Where the value lives, e.g. "Single App Mode › options › disableTouch".
    public let field: String
    /// nil when the field did not exist on that side (payload added or removed).
    public let before: String?
    public let after: String?

    public init(field: String, before: String?, after: String?) {
        self.field = field
        self.before = before
        self.after = after
    }
}

public enum ProfileDiff {
    public static func changes(from old: ProfileContent, to new: ProfileContent) -> [ProfileChange] {
        let before = flatten(old), after = flatten(new)
        let fields = Set(before.keys).union(after.keys)
        return fields.compactMap { field in
            before[field] == after[field] ? nil : ProfileChange(field: field, before: before[field], after: after[field])
        }.sorted { ordering($0.field) < ordering($1.field) }
    }

    /// Every leaf value of a version under a readable path.
    static func flatten(_ content: ProfileContent) -> [String: String] {
        var fields = ["Name": content.name, "Description": content.descriptionMarkdown]
        for payload in content.payloads {
            guard let data = try? JSONEncoder.sorted.encode(payload),
                  case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: data),
                  let settings = object["settings"]
            else { continue }
            collect(settings, path: payload.kind.displayName, into: &fields)
        }
        return fields
    }

    private static func collect(_ value: JSONValue, path: String, into fields: inout [String: String]) {
        switch value {
        case .object(let dictionary):
            if dictionary.isEmpty { fields[path] = "(none)" }
            for (key, child) in dictionary { collect(child, path: "\(path) › \(key)", into: &fields) }
        case .array(let array):
            if array.isEmpty { fields[path] = "(none)" }
            for (index, child) in array.enumerated() { collect(child, path: "\(path) › \(index + 1)", into: &fields) }
        case .bool(let flag): fields[path] = flag ? "Yes" : "No"
        case .number(let number): fields[path] = NumberText.plain(number)
        case .string(let text): fields[path] = text
        case .null: fields[path] = "(none)"
        }
    }

    /// Name and description first, then payload fields in kind order, then alphabetically.
    private static func ordering(_ field: String) -> (Int, String) {
        if field == "Name" { return (0, "") }
        if field == "Description" { return (1, "") }
        let kindIndex = PayloadKind.allCases.firstIndex { field.hasPrefix($0.displayName) } ?? PayloadKind.allCases.count
        return (2 + kindIndex, field)
    }
}

extension JSONEncoder {
    static var sorted: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
