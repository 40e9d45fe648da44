import NIOCore

/// Where the push service is: `https://host[:port]`.
struct PushEndpoint: Sendable, Hashable {
    let host: String
    let port: Int

    init?(baseURL: String) {
        guard baseURL.hasPrefix("https://") else { return nil }
        var rest = Substring(baseURL.dropFirst("https://".count))
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { return nil }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            guard let port = after.isEmpty ? 443 : Int(after.dropFirst()) else { return nil }
            self.port = port
        } else if let colon = rest.lastIndex(of: ":") {
            host = String(rest[..<colon])
            guard let port = Int(rest[rest.index(after: colon)...]) else { return nil }
            self.port = port
        } else {
            host = String(rest)
            port = 443
        }
        guard !host.isEmpty, !host.contains(where: { "[]/@".contains($0) }), (1...65535).contains(port) else { return nil }
    }

    var hostIsAddress: Bool {
        (try? SocketAddress(ipAddress: host, port: port)) != nil
    }

    var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 443 ? name : "\(name):\(port)"
    }
}
