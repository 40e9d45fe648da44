import Domain

/// A list payload field edited as a text area, one entry per line: what people paste from a
/// document or a spreadsheet. The domain reports problems per entry (`sites.2`); the form
/// shows them beside the text area, each with its line number.
enum LineList {
    static func entries(_ text: String) -> [String] {
        text.split(whereSeparator: \.isNewline).map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
    }

    static func text(_ entries: [String]) -> String { entries.joined(separator: "\n") }

    /// The message for field `name`: the list's own problem, then each entry's, by line.
    static func message(_ name: String, in errors: ValidationErrors, entries: [String]) -> String? {
        var lines: [String] = errors[name].map { [$0] } ?? []
        for (index, entry) in entries.enumerated() {
            if let problem = errors["\(name).\(index)"] { lines.append("Line \(index + 1) (\(entry)): \(problem)") }
        }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }
}
