import Foundation

/// The fields of an `application/x-www-form-urlencoded` body. Values stay strings so a form
/// with bad input can be re-rendered exactly as the user typed it.
struct FormFields: Sendable {
    private var values: [String: [String]] = [:]

    init() {}

    init(pairs: [(String, String)]) {
        for (name, value) in pairs { values[name, default: []].append(value) }
    }

    init(urlEncoded body: String) {
        for pair in body.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            values[name, default: []].append(value)
        }
    }

    /// The first value of a field, or "" when it was not sent.
    subscript(_ name: String) -> String { values[name]?.first ?? "" }

    /// Every value of a repeated field (checkbox groups, ordered lists), in the order sent.
    func all(_ name: String) -> [String] { values[name] ?? [] }

    /// Replaces a field's values, for a value the server worked out (an uploaded file's key).
    mutating func set(_ name: String, _ value: String) {
        values[name] = [value]
    }

    /// Checkboxes are sent only when ticked.
    func isChecked(_ name: String) -> Bool { values[name] != nil }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }
}
