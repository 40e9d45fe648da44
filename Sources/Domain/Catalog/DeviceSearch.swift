import Foundation

/// How the device list's one search box reads what was typed: three characters or more are
/// found anywhere inside a name, owner, serial number or UDID ("kiosk" finds "Lobby kiosk 03",
/// "0000003" finds `DMQ0000003X`), through a trigram index; one or two characters are too
/// short for trigrams and match the start of those fields instead. Case never matters.
public enum DeviceSearch: Equatable, Sendable {
    /// Nothing typed: every device.
    case everything
    /// Fewer than `minimumInside` characters: the start of a field, as typed.
    case start(String)
    /// Anywhere inside a field: the FTS5 MATCH expression for the trigram index. The text is
    /// one quoted string, so nothing typed is FTS5 syntax of its own.
    case inside(expression: String)

    /// Trigrams need three characters; shorter text matches the start of a field.
    public static let minimumInside = 3

    public init(_ typed: String) {
        let text = typed.trimmingCharacters(in: .whitespaces)
        if text.isEmpty {
            self = .everything
        } else if text.count < Self.minimumInside {
            self = .start(text)
        } else {
            self = .inside(expression: FTS5Text.quoted(text))
        }
    }
}
