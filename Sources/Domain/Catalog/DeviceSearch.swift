import Foundation

/// How the device list's one search box reads what was typed: three characters or more are
/// found anywhere inside a name, owner, serial number or UDID ("kiosk" finds "Lobby kiosk 03",
/// "0000003" finds `DMQ0000003X`), through a trigram index; one or two characters are too
/// short for trigrams and match the start of those fields instead. Case never matters: the text
/// is folded as the stored names and owners are (`SearchFolding`).
public enum DeviceSearch: Equatable, Sendable {
    /// Nothing typed: every device.
    case everything
    /// Fewer than `minimumInside` characters: the start of a field, folded.
    case start(String)
    /// Anywhere inside a field: the folded text.
    case inside(String)

    /// Trigrams need three characters; shorter text matches the start of a field.
    public static let minimumInside = 3

    public init(_ typed: String) {
        let text = SearchFolding.folded(typed.trimmingCharacters(in: .whitespaces))
        if text.isEmpty {
            self = .everything
        } else if text.count < Self.minimumInside {
            self = .start(text)
        } else {
            self = .inside(text)
        }
    }

    /// The FTS5 MATCH expression for SQLite's trigram index: the text as one quoted string, so
    /// nothing typed is FTS5 syntax of its own.
    public static func trigramExpression(_ folded: String) -> String {
        FTS5Text.quoted(folded)
    }
}
