/// What every text field the console stores may contain.
///
/// Control characters (U+0000–U+001F and U+007F) cannot be written in XML 1.0 at all, so one
/// stored in a name made every `.mobileconfig` that carried it unreadable; they also hide in
/// pasted text and make two names look alike. Tab and line breaks are allowed only where the
/// field is multi-line text. The noncharacters U+FFFE and U+FFFF are refused for the same XML
/// reason.
public enum PlainText {
    public enum Lines: Sendable {
        /// A name, identifier or single value: no tab, no line break.
        case single
        /// A description or free text: tab, line feed and carriage return allowed.
        case multiple
    }

    /// nil when `text` has only characters its field allows, otherwise what to fix.
    public static func problem(_ text: String, lines: Lines = .single) -> String? {
        if hasNoSuspectByte(text.utf8, lines: lines) { return nil }
        for scalar in text.unicodeScalars where !isAllowed(scalar, lines: lines) {
            switch scalar {
            case "\n", "\r": return "Keep this on one line."
            case "\t": return "Remove the tab character."
            default: return "Remove the invisible control character (U+\(hex(scalar.value)))."
            }
        }
        return nil
    }

    /// A text's length as a length rule counts it: Unicode code points, what JSON Schema's
    /// `maxLength` counts, so the API document and the server refuse exactly the same texts.
    /// (`String.count` counts grapheme clusters: "é" written as e and an accent is one.)
    public static func length(_ text: String) -> Int {
        text.unicodeScalars.count
    }

    public static func isAllowed(_ scalar: Unicode.Scalar, lines: Lines) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: lines == .multiple
        case 0x00...0x1F, 0x7F, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// A byte scan that answers for nearly every text (log messages are read by the million):
    /// no byte of a refused control character, and no 0xEF, which begins U+FFFE and U+FFFF in
    /// UTF-8 (and a few allowed characters, which the scalar reading then lets through).
    private static func hasNoSuspectByte(_ bytes: String.UTF8View, lines: Lines) -> Bool {
        for byte in bytes {
            switch byte {
            case 0x09, 0x0A, 0x0D: if lines == .single { return false }
            case 0x00...0x1F, 0x7F, 0xEF: return false
            default: continue
            }
        }
        return true
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

extension Character {
    /// 0–9 only: `isNumber` also accepts other scripts' digits and fractions such as “½”.
    public var isASCIIDigit: Bool { isASCII && isNumber }
}

extension String {
    /// At most `limit` characters, with "…" when cut: for messages that quote what someone
    /// sent, so an answer never grows with the input.
    public func clipped(to limit: Int) -> String {
        count <= limit ? self : String(prefix(max(0, limit - 1))) + "…"
    }
}

extension String {
    /// Only a–z made upper case: `uppercased()` turns "ﬀ" into "FF" and "ı" into "I", so
    /// lookalikes would pass as serial numbers and UDIDs, or match stored ones.
    public var asciiUppercased: String {
        String(String.UnicodeScalarView(unicodeScalars.map { ("a"..."z").contains($0) ? Unicode.Scalar(UInt8(truncatingIfNeeded: $0.value) - 32) : $0 }))
    }
}
