import Domain
import Foundation
import Testing

/// Every payload kind reaches the device: a payload of each kind, alone in a profile, comes out
/// of the effective policy, the device policy and its check-in payloads. The sample below is
/// an exhaustive switch, so a new kind makes this test fail to compile until it has one.
@Suite struct PayloadKindRegistryTests {
    static func sample(of kind: PayloadKind) -> Payload {
        switch kind {
        case .singleAppMode: .singleAppMode(SingleAppMode(appIdentifier: "com.example.kiosk"))
        case .asamAllowlist: .asamAllowlist(ASAMAllowlist(appIdentifiers: ["com.example.exam"]))
        case .dlp: .dlp(DataLossPrevention(allowCopyPasteOut: false))
        case .geofence: .geofence(Geofence(areas: [Geofence.Area(name: "Office", latitude: 48.2, longitude: 16.37, radiusMeters: 200)]))
        case .logging: .logging(Logging(level: .warning))
        case .branding: .branding(Branding())
        case .authentication: .authentication(Authentication())
        case .managedAppConfig: .managedAppConfig(ManagedAppConfiguration(appIdentifier: "com.example.notes"))
        case .customSettings: .customSettings(CustomSettings(text: #"{"kioskMode": true}"#))
        case .compliance: .compliance(Compliance(rules: [ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.4", action: .block)]))
        case .compromisedProtection: .compromisedProtection(CompromisedProtection(action: .wipe))
        case .certificatePinning:
            .certificatePinning(CertificatePinning(hosts: ["api.example.com"], certificates: [
                PinnedCertificate(der: Data([0x30, 0x82]), subject: "CN=api.example.com", issuer: "CN=Example CA",
                                  notBefore: .distantPast, notAfter: .distantFuture, publicKeySHA256: "a2V5")]))
        case .appTunnel: .appTunnel(AppTunnel(mode: .split, directAddresses: ["data.example.com:7777"]))
        case .integratedAuthentication: .integratedAuthentication(IntegratedAuthentication(allowedSites: ["*.example.com"]))
        case .analytics: .analytics(Analytics())
        }
    }

    @Test(arguments: PayloadKind.allCases)
    func aPayloadOfEveryKindReachesTheDevice(kind: PayloadKind) throws {
        let source = PolicySource(profileID: 1, profileName: "Only", version: 1, groupName: "Lobby", groupDistance: 0)
        let payload = Self.sample(of: kind)
        let policy = EffectivePolicy.compute(from: [ReachingProfile(source: source, content: ProfileContent(name: "Only").setting(payload))])
        #expect(policy.settings.map(\.kind) == [kind])
        #expect(policy.settings.first?.payload == payload)
        let device = try #require(DevicePolicy(policy))
        #expect(device.payloads == [payload])
        #expect(!kind.combination.sentence.isEmpty)
    }
}
