/// Numbers as people type them into a form: `12`, `-3.5`, `.5`, `2e3`.
///
/// `Double("…")` also reads `nan`, `inf`, `infinity`, hexadecimal floats and values that
/// overflow to infinity (`1e309`), none of which a person means and none of which the exports
/// can carry, so forms read numbers through this instead.
public enum DecimalNumber {
    /// The finite value of `text` (surrounding whitespace ignored), or nil.
    public static func parse(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace()
        guard isDecimal(trimmed), let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// Sign, digits with at most one decimal point (at least one digit), optional exponent.
    private static func isDecimal(_ text: String) -> Bool {
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
        let isDigit = { (s: Unicode.Scalar) in ("0"..."9").contains(s) }
        let whole = scalars.prefix(while: isDigit)
        scalars = scalars.dropFirst(whole.count)
        var fraction = Substring.UnicodeScalarView.SubSequence()
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            fraction = scalars.prefix(while: isDigit)
            scalars = scalars.dropFirst(fraction.count)
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return false }
        if scalars.first == "e" || scalars.first == "E" {
            scalars = scalars.dropFirst()
            if scalars.first == "+" || scalars.first == "-" { scalars = scalars.dropFirst() }
            let exponent = scalars.prefix(while: isDigit)
            guard !exponent.isEmpty else { return false }
            scalars = scalars.dropFirst(exponent.count)
        }
        return scalars.isEmpty
    }
}
