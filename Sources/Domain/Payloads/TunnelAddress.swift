import Foundation

/// An address as the app tunnel matches it: host and port. The addresses an admin lists to go
/// direct must name their port (seed 004: "you must explicitly list the port number"), since
/// `data.example.com` alone would never match; a URL an app opens takes its scheme's port.
public struct TunnelAddress: Hashable, Sendable {
    /// Lower-cased: host names compare without case.
    public let host: String
    public let port: Int

    /// Reads `host:port`, or `http(s)://host:port` with an optional path after it. Without a
    /// port it is refused, unless `defaultPort` is set (a URL an app opens: 80 or 443).
    public static func parse(_ text: String, defaultPort: Bool = false) -> Result<TunnelAddress, HostProblem> {
        var rest = Substring(text.trimmingWhitespace())
        var schemePort = 443
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard scheme == "http" || scheme == "https" else { return .failure(HostProblem("Use an http:// or https:// address, or just host:port.")) }
            schemePort = scheme == "http" ? 80 : 443
            rest = rest[range.upperBound...]
        }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        let port: Int
        if let colon = rest.lastIndex(of: ":") {
            guard let given = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(given) else {
                return .failure(HostProblem("The port is a whole number from 1 to 65535."))
            }
            port = given
            rest = rest[..<colon]
        } else if defaultPort {
            port = schemePort
        } else {
            return .failure(HostProblem("Add the port, as in data.example.com:7777: the tunnel matches host and port."))
        }
        if let problem = HostName.problem(String(rest)) { return .failure(HostProblem(problem)) }
        return .success(TunnelAddress(host: rest.lowercased(), port: port))
    }
}

public struct HostProblem: Error, Equatable, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}
