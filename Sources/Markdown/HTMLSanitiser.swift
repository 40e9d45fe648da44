import Foundation

/// Keeps an allowlist of tags from HTML that our own renderer produced: other tags are dropped
/// (their text stays), every attribute is dropped except a safe `href` on links.
enum HTMLSanitiser {
    static let allowedTags: Set<String> = [
        "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "em", "strong", "code", "pre", "blockquote",
        "ul", "ol", "li", "a", "table", "thead", "tbody", "tr", "th", "td", "del",
    ]
    static let safeSchemes = ["http:", "https:", "mailto:"]

    static func clean(_ html: String) -> String {
        var output = ""
        var rest = Substring(html)
        while let open = rest.firstIndex(of: "<") {
            output += rest[..<open]
            guard let close = rest[open...].firstIndex(of: ">") else {
                output += escape(rest[open...])
                return output
            }
            output += tag(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        output += rest
        return output
    }

    /// The cleaned form of one tag's inside (between `<` and `>`), or "" to drop it.
    private static func tag(_ inside: Substring) -> String {
        let isClosing = inside.hasPrefix("/")
        let body = isClosing ? inside.dropFirst() : inside
        let name = body.prefix { $0.isLetter || $0.isNumber }.lowercased()
        guard allowedTags.contains(name) else { return "" }
        if isClosing { return "</\(name)>" }
        if name == "a" {
            guard let href = attribute("href", in: body), isSafe(href) else { return "<a>" }
            return "<a href=\"\(href)\" rel=\"nofollow noopener\">"
        }
        return name == "br" || name == "hr" ? "<\(name)>" : "<\(name)>"
    }

    /// The value of a double-quoted attribute, as Discount writes them (already escaped).
    private static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return String(value)
    }

    private static func isSafe(_ href: String) -> Bool {
        let lowered = href.lowercased().filter { !$0.isWhitespace }
        guard let colon = lowered.firstIndex(of: ":") else { return true }  // relative
        let beforeColon = lowered[..<colon]
        // A colon after a slash, ? or # belongs to the path or query, not a scheme.
        if beforeColon.contains(where: { "/?#".contains($0) }) { return true }
        return safeSchemes.contains(String(lowered[...colon]))
    }

    private static func escape(_ text: Substring) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
