import Domain
import Foundation

/// A payload as its form shows it: each setting under the form's own label, with the value
/// as the form shows it (levels and types by name, Yes/No, a colour with its swatch, a logo
/// with its picture, a configuration value as typed) — what the history compares, so a diff
/// reads in the payload's words rather than its stored keys.
enum PayloadFields {
    struct Field: Equatable {
        let label: String
        let value: String
        /// `#rrggbb` when the value is a colour to show as a swatch.
        var swatch: String?
        /// The stored image's address when the value is a logo to show as a thumbnail.
        var image: String?
    }

    /// The payload's settings as its kind's `labelledFields` give them.
    static func fields(_ payload: Payload) -> [Field] {
        PayloadPresentations.of(payload)?.labelledFields ?? []
    }

    static func yes(_ flag: Bool) -> String { flag ? "Yes" : "No" }

    /// A configuration value as a person typed it.
    static func text(_ value: ConfigValue) -> String {
        switch value {
        case .string(let text): text
        case .integer(let number): String(number)
        case .real(let number): NumberText.plain(number)
        case .boolean(let flag): flag ? "Yes" : "No"
        case .date(let date): date.formatted(.iso8601)
        case .stringArray(let items): items.isEmpty ? "(empty list)" : items.joined(separator: ", ")
        }
    }
}
