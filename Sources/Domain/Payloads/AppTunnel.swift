/// App tunnel: SDK apps' traffic goes through the organisation's tunnel proxy — all of it, or
/// all but the listed addresses (split tunnelling).
public struct AppTunnel: Codable, Equatable, Sendable {
    public static let kind = PayloadKind("app-tunnel", displayName: "App tunnel",
                                         summary: "Sends SDK apps' traffic through the organisation's tunnel, all of it or all but listed addresses.",
                                         combination: .nearestGroup, settings: AppTunnel.self)
    public static let maximumAddresses = 100

    public enum Mode: String, CaseIterable, Codable, Sendable {
        case everything, split

        public var displayName: String {
            switch self {
            case .everything: "Tunnel everything"
            case .split: "Split: the listed addresses go direct"
            }
        }
    }

    public var mode: Mode
    /// The addresses that do not go through the tunnel in split mode; one without a port
    /// covers 80 and 443 (`ListedTunnelAddress`).
    public var directAddresses: [String]

    public init(mode: Mode = .everything, directAddresses: [String] = []) {
        self.mode = mode
        self.directAddresses = directAddresses
    }

    /// Field paths are `addresses` and `addresses.N`.
    public func validate() -> ValidationErrors {
        var errors = ValidationErrors()
        switch mode {
        case .everything where !directAddresses.isEmpty:
            errors["addresses"] = "Tunnelling everything lists no addresses: choose split tunnelling, or remove them."
        case .split where directAddresses.isEmpty:
            errors["addresses"] = "Split tunnelling needs at least one address that goes direct."
        default:
            break
        }
        if directAddresses.count > Self.maximumAddresses { errors["addresses"] = "List at most \(Self.maximumAddresses) addresses." }
        var seen: [(text: String, address: ListedTunnelAddress)] = []
        for (index, address) in directAddresses.enumerated() {
            switch ListedTunnelAddress.parse(address) {
            case .failure(let problem): errors["addresses.\(index)"] = problem.message
            case .success(let parsed):
                if let earlier = seen.first(where: { $0.address.overlaps(parsed) }) {
                    errors["addresses.\(index)"] = earlier.address == parsed ? "\(address) is already in the list."
                        : "\(address) is already covered by \(earlier.text) (a host without a port means 80 and 443)."
                }
                seen.append((address, parsed))
            }
        }
        return errors
    }

    /// Whether a request to `url` goes through the tunnel, and why — the simulator's answer.
    /// Addresses ending in `.local` never tunnel (the SDK leaves Bonjour services alone).
    public func route(_ url: String) -> (tunnelled: Bool, reason: String) {
        guard case .success(let target) = TunnelAddress.parse(url) else { return (false, "The address does not read as a URL.") }
        if target.host.hasSuffix(".local") { return (false, "Addresses ending in .local never go through the tunnel.") }
        if mode == .split, let listed = directAddresses.first(where: { (try? ListedTunnelAddress.parse($0).get())?.matches(target) == true }) {
            return (false, "\(listed) is listed to go direct.")
        }
        return (true, mode == .everything ? "Every address goes through the tunnel." : "Not listed to go direct, so through the tunnel.")
    }
}

extension PayloadKind {
    public static var appTunnel: PayloadKind { AppTunnel.kind }
}

extension AppTunnel: SDKPayloadSettings {
    public static let sdkKey = "AppTunnel"

    public var sdkEntry: PropertyList {
        .dictionary([("Mode", .string(mode == .everything ? "TunnelAll" : "Split")),
                     ("AppTunnelURLs", .array(directAddresses.map(PropertyList.string)))])
    }

    public init(sdkEntry entry: SDKEntry) throws {
        let mode: Mode = switch try entry.string("Mode") {
        case "TunnelAll": .everything
        case "Split": .split
        default: throw SDKEntry.Unreadable("AppTunnel.Mode is neither TunnelAll nor Split.")
        }
        self.init(mode: mode, directAddresses: try entry.strings("AppTunnelURLs"))
    }
}
