import Foundation

/// The one rule by which the device search ignores case, on either backend: Unicode's full
/// case folding ("ΣΊΣΥΦΟΣ", "σίσυφος" and "σίσυφοσ" are one word; "STRASSE" finds "Straße"),
/// composed (an "é" typed as e and an accent is the "é" stored), and a dot above an i dropped,
/// since an i carries its dot already ("İstanbul", "İSTANBUL" and "istanbul" are one word).
///
/// The console folds in Swift and stores the folded text beside what it folds: PostgreSQL's
/// `lower()` follows the server's locale and SQLite's index folds by tables of its own, so
/// leaving the folding to either gave each backend different answers.
public enum SearchFolding {
    public static func folded(_ text: String) -> String {
        let folded = text.folding(options: .caseInsensitive, locale: nil).precomposedStringWithCanonicalMapping
        guard folded.unicodeScalars.contains(combiningDotAbove) else { return folded }
        var scalars = String.UnicodeScalarView()
        var previous: Unicode.Scalar?
        for scalar in folded.unicodeScalars {
            if scalar == combiningDotAbove, previous == "i" || previous == "j" { continue }
            scalars.append(scalar)
            previous = scalar
        }
        return String(scalars)
    }

    private static let combiningDotAbove: Unicode.Scalar = "\u{0307}"
}
