import Domain
import Foundation
import Testing

/// Connections, email and links from the simulated apps: certificate pinning with the right and
/// the wrong certificate, the tunnel's route, and DLP's managed browser and mail app.
@Suite struct SimulatorNetworkTests {
    let api = PinnedCertificate(der: Data("api".utf8), subject: "CN=api.example.com", issuer: "CN=Example CA",
                                notBefore: Fixture.start.addingTimeInterval(-86_400), notAfter: Fixture.start.addingTimeInterval(86_400 * 30),
                                publicKeySHA256: "api-key")
    let legacy = PinnedCertificate(der: Data("legacy".utf8), subject: "CN=legacy.example.com", issuer: "CN=Example CA",
                                   notBefore: Fixture.start.addingTimeInterval(-86_400 * 400), notAfter: Fixture.start.addingTimeInterval(-86_400 * 35),
                                   publicKeySHA256: "legacy-key")
    static let browser = SimulatedApp(bundleID: "com.example.browser", name: "Web", isManaged: true, isSDKBuilt: true, role: .browser)
    static let mail = SimulatedApp(bundleID: "com.example.mail", name: "Boxer", isManaged: true, isSDKBuilt: true, role: .mail)

    func run(_ policy: DevicePolicy, apps extra: [SimulatedApp] = [], open app: SimulatedApp = Fixture.notes) -> Run {
        var device = Fixture.device(policy: policy)
        device.apps += extra
        var run = Run(device)
        run.perform(.launchApp(app.bundleID))
        return run
    }

    var pinned: DevicePolicy {
        DevicePolicy(CertificatePinning(hosts: ["api.example.com", "*.legacy.example.com"], certificates: [api, legacy]), AppTunnel(mode: .split, directAddresses: ["api.example.com:443"]))
    }

    @Test func thePinnedCertificateConnectsAndSaysHowItRoutes() {
        var run = run(pinned)
        let event = run.perform(.connect(app: Fixture.notes.bundleID, url: "https://api.example.com/v1", certificate: .pinned(0)))
        #expect(event.result == .done)
        #expect(event.message.contains("matches the pinned certificate CN=api.example.com"))
        #expect(event.message.contains("Direct, not through the tunnel: api.example.com:443 is listed to go direct."))
    }

    @Test func aWrongCertificateIsRefusedOnAPinnedHost() {
        var run = run(pinned)
        let event = run.perform(.connect(app: Fixture.notes.bundleID, url: "https://api.example.com", certificate: .interceptor))
        #expect(event.result == .blocked)
        #expect(event.rule == "Certificate pinning: api.example.com connects only with a pinned key")
        #expect(event.message.contains("an inspecting proxy's certificate"))
        // Another pinned certificate's key is still a pinned key for every listed host.
        let other = run.perform(.connect(app: Fixture.notes.bundleID, url: "https://eu.legacy.example.com", certificate: .pinned(0)))
        #expect(other.result == .done)
    }

    @Test func anExpiredPinnedCertificateFailsOnItsDates() {
        var run = run(pinned)
        let event = run.perform(.connect(app: Fixture.notes.bundleID, url: "https://eu.legacy.example.com", certificate: .pinned(1)))
        #expect(event.result == .blocked)
        #expect(event.rule == "A certificate is valid only between its dates")
    }

    @Test func unlistedHostsAndAppsWithoutTheSDKUseOrdinaryTrust() {
        var run = run(pinned)
        let unlisted = run.perform(.connect(app: Fixture.notes.bundleID, url: "https://www.example.com", certificate: .interceptor))
        #expect(unlisted.result == .done && unlisted.rule == "www.example.com is not a pinned host")
        #expect(unlisted.message.contains("Through the tunnel"))
        run.perform(.launchApp(Fixture.personal.bundleID))
        let personal = run.perform(.connect(app: Fixture.personal.bundleID, url: "https://api.example.com", certificate: .interceptor))
        #expect(personal.result == .done && personal.rule.contains("not built with the SDK"))
        #expect(!personal.message.contains("tunnel"))
    }

    @Test func badConnectionsAreRefused() {
        var run = run(pinned)
        #expect(run.perform(.connect(app: Fixture.notes.bundleID, url: "ftp://x", certificate: .interceptor)).result == .refused)
        #expect(run.perform(.connect(app: Fixture.notes.bundleID, url: "https://api.example.com", certificate: .pinned(5))).message
            == "No pinned certificate 6 reaches this device: it has 2.")
        #expect(run.perform(.connect(app: Fixture.kiosk.bundleID, url: "https://api.example.com", certificate: .pinned(0))).result == .refused)
        run.perform(.setNetwork(.offline))
        #expect(run.perform(.connect(app: Fixture.notes.bundleID, url: "https://api.example.com", certificate: .pinned(0))).message == "The device is offline.")
    }

    @Test func composingEmailFollowsDLP() {
        var blocked = run(DevicePolicy(DataLossPrevention(allowComposeEmail: false)))
        #expect(blocked.perform(.composeEmail(app: Fixture.notes.bundleID)).result == .blocked)
        var allowed = run(DevicePolicy(DataLossPrevention()))
        #expect(allowed.perform(.composeEmail(app: Fixture.notes.bundleID)).result == .done)
        // A non-SDK app is outside DLP.
        var personal = run(DevicePolicy(DataLossPrevention(allowComposeEmail: false)), open: Fixture.personal)
        #expect(personal.perform(.composeEmail(app: Fixture.personal.bundleID)).result == .done)
    }

    @Test func linksStayInTheManagedBrowserWhenDLPSaysSo() {
        let managed = DevicePolicy(DataLossPrevention(openLinksInManagedBrowser: true, openMailtoInManagedMail: true))
        var withApps = run(managed, apps: [Self.browser, Self.mail])
        let link = withApps.perform(.openLink(app: Fixture.notes.bundleID, url: "https://intranet.example.com/news"))
        #expect(link.result == .done && link.message == "It opens in Web, the managed browser.")
        let mailto = withApps.perform(.openMailto(app: Fixture.notes.bundleID, address: "help@example.com"))
        #expect(mailto.result == .done && mailto.message == "It opens in Boxer, the managed mail app.")

        var without = run(managed)
        #expect(without.perform(.openLink(app: Fixture.notes.bundleID, url: "https://intranet.example.com")).result == .blocked)
        #expect(without.perform(.openMailto(app: Fixture.notes.bundleID, address: "help@example.com")).result == .blocked)

        var free = run(DevicePolicy(DataLossPrevention()), apps: [Self.browser])
        #expect(free.perform(.openLink(app: Fixture.notes.bundleID, url: "https://intranet.example.com")).message == "It opens in Safari.")
        #expect(free.perform(.openMailto(app: Fixture.notes.bundleID, address: "help@example.com")).message == "It opens in the Mail app.")
        #expect(free.perform(.openLink(app: Fixture.notes.bundleID, url: "intranet")).result == .refused)
        #expect(free.perform(.openMailto(app: Fixture.notes.bundleID, address: "not an address")).result == .refused)
    }
}
