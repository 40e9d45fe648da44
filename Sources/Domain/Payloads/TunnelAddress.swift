import Foundation

/// An address as the app tunnel matches it: host and port. A URL an app opens takes its
/// scheme's port when it names none.
public struct TunnelAddress: Hashable, Sendable {
    /// Lower-cased: host names compare without case.
    public let host: String
    public let port: Int

    /// Reads `host:port`, or `http(s)://host:port` with an optional path after it; without a
    /// port, the scheme's (80 for http, else 443).
    public static func parse(_ text: String) -> Result<TunnelAddress, HostProblem> {
        TunnelAddressText.read(text).map { TunnelAddress(host: $0.host, port: $0.port ?? ($0.scheme == "http" ? 80 : 443)) }
    }
}

/// An address an admin lists to go direct. The seed asks for the port only when it is not a
/// standard one ("a port that is not port 80 or 443 … you must explicitly list the port
/// number"), so a listed host without a port stands for both 80 and 443; `http://host` or
/// `https://host` stands for its scheme's port alone.
public struct ListedTunnelAddress: Hashable, Sendable {
    public static let standardPorts = [80, 443]

    public let host: String
    /// The ports it covers, ascending.
    public let ports: [Int]

    public static func parse(_ text: String) -> Result<ListedTunnelAddress, HostProblem> {
        TunnelAddressText.read(text).map { read in
            let ports = if let port = read.port { [port] } else if let scheme = read.scheme { [scheme == "http" ? 80 : 443] } else { standardPorts }
            return ListedTunnelAddress(host: read.host, ports: ports)
        }
    }

    public func matches(_ address: TunnelAddress) -> Bool { host == address.host && ports.contains(address.port) }

    /// Whether the two entries cover a host and port in common.
    public func overlaps(_ other: ListedTunnelAddress) -> Bool { host == other.host && !Set(ports).isDisjoint(with: other.ports) }
}

/// The text of an address taken apart, shared by what apps open and what admins list.
private enum TunnelAddressText {
    struct Read {
        let scheme: String?
        let host: String
        let port: Int?
    }

    static func read(_ text: String) -> Result<Read, HostProblem> {
        var rest = Substring(text.trimmingWhitespace())
        var scheme: String?
        if let range = rest.range(of: "://") {
            let given = rest[..<range.lowerBound].lowercased()
            guard given == "http" || given == "https" else { return .failure(HostProblem("Use an http:// or https:// address, or just a host name (with :port when it is not 80 or 443).")) }
            scheme = given
            rest = rest[range.upperBound...]
        }
        if let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) { rest = rest[..<end] }
        var port: Int?
        if let colon = rest.lastIndex(of: ":") {
            guard let given = Int(rest[rest.index(after: colon)...]), (1...65_535).contains(given) else {
                return .failure(HostProblem("The port is a whole number from 1 to 65535."))
            }
            port = given
            rest = rest[..<colon]
        }
        if let problem = HostName.problem(String(rest)) { return .failure(HostProblem(problem)) }
        return .success(Read(scheme: scheme, host: rest.lowercased(), port: port))
    }
}

public struct HostProblem: Error, Equatable, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}
