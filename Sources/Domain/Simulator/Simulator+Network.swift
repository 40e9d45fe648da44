import Foundation

/// An SDK app talking to a server: the app tunnel decides the route, certificate pinning
/// whether the server's certificate is accepted.
extension Step {
    mutating func connect(app bundleID: String, url: String, certificate: ServerCertificate) {
        let action = "Connect \(name(bundleID)) to \(url.clipped(to: 80))"
        guard let app = foregroundApp(bundleID, for: action), appIsUsable(app, for: action) else { return }
        guard device.network != .offline else {
            record(action, rule: "A connection needs a network", .refused, "The device is offline.")
            return
        }
        guard case .success(let target) = TunnelAddress.parse(url) else {
            record(action, rule: "Apps connect to http:// or https:// addresses", .refused, "\(url.clipped(to: 80)) is not an address such as https://api.example.com.")
            return
        }
        guard let presented = presentedCertificate(certificate, for: action) else { return }
        let route = app.isSDKBuilt ? device.policy[AppTunnel.self].map { tunnel in
            let (tunnelled, reason) = tunnel.route(url)
            return " \(tunnelled ? "Through the tunnel" : "Direct, not through the tunnel"): \(reason)"
        } ?? "" : ""
        let pinning = app.isSDKBuilt ? device.policy[CertificatePinning.self] : nil
        let answer = (pinning ?? CertificatePinning(enabled: false))
            .connect(host: target.host, publicKeySHA256: presented.key, validFrom: presented.from, validUntil: presented.until, at: device.clock)
        switch answer {
        case .pinned(let match):
            record(action, rule: "Certificate pinning: \(target.host) connects only with a pinned key", .done,
                   "Connected: the server's public key matches the pinned certificate \(match.subject).\(route)")
        case .refusedKey:
            record(action, rule: "Certificate pinning: \(target.host) connects only with a pinned key", .blocked,
                   "Refused: the server presented \(presented.description), whose public key is not pinned for \(target.host).")
        case .refusedDates:
            record(action, rule: "A certificate is valid only between its dates", .blocked,
                   "Refused: \(presented.description) is valid \(PinnedCertificate.day(presented.from)) to \(PinnedCertificate.day(presented.until)), "
                   + "and the device's date is \(PinnedCertificate.day(device.clock)).")
        case .notPinned:
            let why = !app.isSDKBuilt ? "\(app.name) is not built with the SDK, so no pinning applies"
                : pinning?.enabled == true ? "\(target.host) is not a pinned host" : "No certificate pinning applies"
            record(action, rule: why, .done, "Connected with the device's ordinary trust in \(presented.description).\(route)")
        }
    }

    /// The key and dates of what the server presents; refuses a pinned position that no
    /// certificate of the device's policy fills.
    private mutating func presentedCertificate(_ certificate: ServerCertificate, for action: String)
        -> (key: String, from: Date, until: Date, description: String)? {
        switch certificate {
        case .interceptor:
            let year: TimeInterval = 365 * 86_400
            return ("interceptor", device.clock.addingTimeInterval(-year), device.clock.addingTimeInterval(year),
                    "an inspecting proxy's certificate")
        case .pinned(let index):
            let pinned = device.policy[CertificatePinning.self]?.certificates ?? []
            guard pinned.indices.contains(index) else {
                record(action, rule: "The server presents a pinned certificate", .refused,
                       "No pinned certificate \(index + 1) reaches this device: it has \(pinned.count).")
                return nil
            }
            let chosen = pinned[index]
            return (chosen.publicKeySHA256, chosen.notBefore, chosen.notAfter, "the certificate \(chosen.subject)")
        }
    }

    /// An SDK app behind its blocker or sign-in does nothing else.
    mutating func appIsUsable(_ app: SimulatedApp, for action: String) -> Bool {
        switch device.screen {
        case .blocked(_, let reason):
            record(action, rule: "A blocked SDK app does nothing", .blocked, "\(app.name) is blocked. \(reason)")
            return false
        case .signIn:
            record(action, rule: "An SDK app waits for its sign-in", .refused, "Sign in to \(app.name) first.")
            return false
        case .home, .app:
            return true
        }
    }
}
