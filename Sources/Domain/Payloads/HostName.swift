/// Host names and the addresses payloads list (integrated authentication's allowed sites,
/// the app tunnel's URLs): DNS labels of letters, digits and hyphens.
public enum HostName {
    public static let maximumLength = 253

    /// nil when `candidate` is a host name (or an IPv4 address), otherwise what is wrong.
    public static func problem(_ candidate: String) -> String? {
        if candidate.isEmpty { return "Enter a host such as wiki.example.com." }
        if candidate.count > maximumLength { return "A host name has at most \(maximumLength) characters." }
        let labels = candidate.split(separator: ".", omittingEmptySubsequences: false)
        let valid = labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        return valid ? nil : "Enter a host such as wiki.example.com: dot-separated parts of letters, digits and hyphens."
    }

    /// A host, or `*.` and a domain for every host under it; nil when allowed.
    public static func patternProblem(_ candidate: String) -> String? {
        guard candidate.hasPrefix("*.") else {
            return candidate.contains("*") ? "A wildcard may only open the pattern, as in *.example.com." : problem(candidate)
        }
        let domain = String(candidate.dropFirst(2))
        if domain.contains("*") { return "A wildcard may only open the pattern, as in *.example.com." }
        return problem(domain)
    }

    /// Whether `host` is `pattern` or, for `*.domain`, any host under the domain (not the
    /// domain itself, as the pattern reads). Host names compare without case.
    public static func matches(_ host: String, pattern: String) -> Bool {
        let host = host.lowercased(), pattern = pattern.lowercased()
        if pattern.hasPrefix("*.") { return host.hasSuffix(String(pattern.dropFirst(1))) }
        return host == pattern
    }
}
