import Foundation

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

/// A URL the app tunnel leaves out, which must name its port: the tunnel matches host and
/// port, so `data.example.com` alone would never match (seed 004: "you must explicitly list
/// the port number").
public struct TunnelAddress: Equatable, Sendable {
    public let scheme: String?
    public let host: String
    public let port: Int

    /// Reads `host:port`, or `http(s)://host:port` with an optional path after it.
    public static func parse(_ text: String) -> Result<TunnelAddress, HostProblem> {
        var rest = Substring(text.trimmingWhitespace())
        var scheme: String?
        if let range = rest.range(of: "://") {
            let given = rest[..<range.lowerBound].lowercased()
            guard given == "http" || given == "https" else { return .failure(HostProblem("Use an http:// or https:// address, or just host:port.")) }
            scheme = given
            rest = rest[range.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard let colon = rest.lastIndex(of: ":") else {
            return .failure(HostProblem("Add the port, as in data.example.com:7777: the tunnel matches host and port."))
        }
        let host = String(rest[..<colon])
        if let problem = HostName.problem(host) { return .failure(HostProblem(problem)) }
        guard let port = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(port) else {
            return .failure(HostProblem("The port is a whole number from 1 to 65535."))
        }
        return .success(TunnelAddress(scheme: scheme, host: host, port: port))
    }

    /// The port a URL reaches: its own, or its scheme's.
    public static func port(of url: String) -> (host: String, port: Int)? {
        var rest = Substring(url)
        var port = 443
        if let range = rest.range(of: "://") {
            port = rest[..<range.lowerBound].lowercased() == "http" ? 80 : 443
            rest = rest[range.upperBound...]
        }
        if let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<slash] }
        if let colon = rest.lastIndex(of: ":") {
            guard let given = Int(rest[rest.index(after: colon)...]) else { return nil }
            port = given
            rest = rest[..<colon]
        }
        return rest.isEmpty ? nil : (String(rest).lowercased(), port)
    }
}

public struct HostProblem: Error, Equatable, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}
