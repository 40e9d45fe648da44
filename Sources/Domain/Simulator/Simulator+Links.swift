import Foundation

/// Email and links out of SDK apps, as DLP decides them: composing email, web links kept in
/// the managed browser, mailto links kept in the managed mail app.
extension Step {
    mutating func composeEmail(app bundleID: String) {
        let action = "Compose an email in \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action), appIsUsable(app, for: action) else { return }
        if dlp(for: app)?.allowComposeEmail == false {
            record(action, rule: "Composing email: No", .blocked, "Blocked: \(app.name) may not start an email in the mail app.")
            return
        }
        record(action, rule: app.isSDKBuilt && device.policy[DataLossPrevention.self] != nil ? "Composing email: Yes" : "Composing email", .done,
               "The mail app opens a new message from \(app.name).")
    }

    mutating func openLink(app bundleID: String, url: String) {
        let action = "Open \(url.clipped(to: 80)) from \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action), appIsUsable(app, for: action) else { return }
        guard case .success = TunnelAddress.parse(url), url.contains("://") else {
            record(action, rule: "Web links are http:// or https:// addresses", .refused, "\(url.clipped(to: 80)) is not a web address.")
            return
        }
        handOver(action, from: app, keptManaged: dlp(for: app)?.openLinksInManagedBrowser == true, role: .browser,
                 rule: "Open links in the managed browser", otherwise: "Safari")
    }

    mutating func openMailto(app bundleID: String, address: String) {
        let action = "Open mailto:\(address.clipped(to: 80)) from \(name(bundleID))"
        guard let app = foregroundApp(bundleID, for: action), appIsUsable(app, for: action) else { return }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, HostName.problem(String(parts[1])) == nil else {
            record(action, rule: "A mailto link names an address", .refused, "\(address.clipped(to: 80)) is not an address such as help@example.com.")
            return
        }
        handOver(action, from: app, keptManaged: dlp(for: app)?.openMailtoInManagedMail == true, role: .mail,
                 rule: "Open mailto links in the managed mail app", otherwise: "the Mail app")
    }

    /// Sends a link to the managed app of `role` when DLP keeps it managed (blocked when that
    /// app is not installed: the SDK never falls back), or to the system's default app.
    private mutating func handOver(_ action: String, from app: SimulatedApp, keptManaged: Bool, role: AppRole, rule: String, otherwise: String) {
        guard keptManaged else {
            record(action, rule: app.isSDKBuilt && device.policy[DataLossPrevention.self] != nil ? "\(rule): No" : "Links open in the default app", .done,
                   "It opens in \(otherwise).")
            return
        }
        guard let target = device.apps.first(where: { $0.role == role }) else {
            record(action, rule: "\(rule): Yes", .blocked,
                   "Blocked: DLP keeps it in \(role.displayName.lowercased()), and none is installed on this device.")
            return
        }
        record(action, rule: "\(rule): Yes", .done, "It opens in \(target.name), \(role.displayName.lowercased()).")
    }
}
