import Foundation

/// Markdown as a device shows plain text: iOS prints a profile's PayloadDescription as it is,
/// so `**lobby iPads**` must arrive as "lobby iPads". Rendered by Discount (so emphasis, code
/// and escapes mean what they mean in the console), then reduced to its text: paragraphs and
/// list items on lines of their own, a link's address after its words, entities decoded.
extension MarkdownRenderer {
    public static func plainText(_ markdown: String) -> String {
        let html = html(markdown)
        var output = ""
        var rest = Substring(html)
        var pendingLink: String?
        while let open = rest.firstIndex(of: "<") {
            output += decodeEntities(rest[..<open])
            guard let close = rest[open...].firstIndex(of: ">") else { break }
            let tag = rest[rest.index(after: open)..<close]
            let name = tag.prefix { $0 != " " && $0 != ">" }.lowercased()
            switch name {
            case "p", "/p", "br", "br/", "hr", "ul", "/ul", "ol", "/ol", "/li", "pre", "/pre", "blockquote", "/blockquote",
                 "h1", "/h1", "h2", "/h2", "h3", "/h3", "h4", "/h4", "h5", "/h5", "h6", "/h6", "tr", "/tr":
                if !output.isEmpty, !output.hasSuffix("\n") { output += "\n" }
            case "li":
                if !output.isEmpty, !output.hasSuffix("\n") { output += "\n" }
                output += "• "
            case "a":
                pendingLink = tag.range(of: "href=\"").map { range in
                    decodeEntities(tag[range.upperBound...].prefix { $0 != "\"" })
                }
            case "/a":
                if let link = pendingLink, !output.hasSuffix(link), !link.hasPrefix("mailto:") { output += " (\(link))" }
                pendingLink = nil
            case "td", "th":
                if !output.isEmpty, !output.hasSuffix("\n") { output += " " }
            default:
                break
            }
            rest = rest[rest.index(after: close)...]
        }
        output += decodeEntities(rest)
        // Blank lines collapse to one line break; a device shows the description in a small box.
        return output.split(separator: "\n", omittingEmptySubsequences: true)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }.joined(separator: "\n")
    }

    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var result = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            result += rest[..<amp]
            let candidate = rest[amp...].prefix(10)
            guard let semicolon = candidate.firstIndex(of: ";") else {
                result += "&"
                rest = rest[rest.index(after: amp)...]
                continue
            }
            let entity = rest[rest.index(after: amp)..<semicolon]
            let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{00A0}"]
            if let value = named[String(entity)] {
                result += value
            } else if entity.hasPrefix("#"), let code = entity.hasPrefix("#x") || entity.hasPrefix("#X")
                        ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()),
                      let scalar = Unicode.Scalar(code) {
                result.unicodeScalars.append(scalar)
            } else {
                result += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return result + rest
    }
}
