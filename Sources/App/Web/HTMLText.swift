/// Escaping for HTML we assemble by hand (list rows, SVG sketches), where running a template
/// per row would cost more than the page's whole database work. Escapes the same characters
/// Mustache does, so hand-built and template-built markup are equally safe.
enum HTMLText {
    static func escape(_ text: String) -> String {
        // Most values (names, identifiers, dates) need nothing; skip the copy for them.
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
            || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }) else { return text }
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count + 16)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }
}
