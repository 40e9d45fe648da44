import Domain
import Foundation
import Testing

/// Every payload kind reaches the device: a payload of each kind, alone in a profile, comes out
/// of the effective policy, the device policy and its check-in payloads, and comes back from
/// every form it is stored or sent in. `samples` holds one payload per kind; a registered
/// kind without one fails `everyRegisteredKindHasASample`.
@Suite struct PayloadKindRegistryTests {
    static let samples: [Payload] = [
        Payload(SingleAppMode(appIdentifier: "com.example.kiosk")),
        Payload(ASAMAllowlist(appIdentifiers: ["com.example.exam"])),
        Payload(RequiredApps(appIdentifiers: ["com.example.orders"])),
        Payload(DataLossPrevention(allowCopyPasteOut: false)),
        Payload(Geofence(areas: [Geofence.Area(name: "Office", latitude: 48.2, longitude: 16.37, radiusMeters: 200)])),
        Payload(Logging(level: .warning)),
        Payload(Branding()),
        Payload(Authentication()),
        Payload(ManagedAppConfiguration(appIdentifier: "com.example.notes")),
        Payload(CustomSettings(text: #"{"kioskMode": true}"#)),
        Payload(Compliance(rules: [ComplianceRule(subject: .operatingSystem, comparison: .lessThan, version: "17.4", action: .block)])),
        Payload(CompromisedProtection(action: .wipe)),
        Payload(CertificatePinning(hosts: ["api.example.com"], certificates: [
            PinnedCertificate(der: Data([0x30, 0x82]), subject: "CN=api.example.com", issuer: "CN=Example CA",
                              notBefore: .distantPast, notAfter: .distantFuture, publicKeySHA256: "a2V5")])),
        Payload(AppTunnel(mode: .split, directAddresses: ["data.example.com:7777"])),
        Payload(IntegratedAuthentication(allowedSites: ["*.example.com"])),
        Payload(Analytics()),
    ]

    static func sample(of kind: PayloadKind) -> Payload? {
        samples.first { $0.kind == kind }
    }

    @Test func everyRegisteredKindHasASample() {
        #expect(Self.samples.map(\.kind) == PayloadKind.allCases)
    }

    @Test(arguments: PayloadKind.allCases)
    func aPayloadOfEveryKindReachesTheDevice(kind: PayloadKind) throws {
        let source = PolicySource(profileID: 1, profileName: "Only", version: 1, groupName: "Lobby", groupDistance: 0)
        let payload = try #require(Self.sample(of: kind))
        let policy = EffectivePolicy.compute(from: [ReachingProfile(source: source, content: ProfileContent(name: "Only").setting(payload))])
        #expect(policy.settings.map(\.kind) == [kind])
        #expect(policy.settings.first?.payload == payload)
        let device = try #require(DevicePolicy(policy))
        #expect(device.payloads == [payload])
        #expect(!kind.combination.sentence.isEmpty)
    }

    /// What a kind declares (its name, its settings' coding, how a device holds it, its API
    /// shape) is enough to store it, keep it on a device and send it through the API.
    @Test(arguments: PayloadKind.allCases)
    func aPayloadOfEveryKindComesBackFromStorageTheDeviceAndTheAPI(kind: PayloadKind) throws {
        let payload = try #require(Self.sample(of: kind))
        let stored = try JSONEncoder().encode(ProfileContent(name: "Only", payloads: [payload]))
        #expect(try JSONDecoder().decode(ProfileContent.self, from: stored).payloads == [payload])
        #expect(String(decoding: stored, as: UTF8.self).contains(#""kind":"\#(kind.rawValue)""#))

        let device = DevicePolicy(payload.settings)
        let held = try JSONEncoder().encode(device)
        #expect(try JSONDecoder().decode(DevicePolicy.self, from: held) == device)
        #expect(try JSONDecoder().decode(DevicePolicy.self, from: held).payloads == [payload])

        #expect(try PayloadJSON.decode(try PayloadJSON.encode(payload)) == payload)
        #expect(PayloadKind(rawValue: kind.rawValue) == kind)
    }

    @Test func aNameNoKindHasIsNotAKind() throws {
        #expect(PayloadKind(rawValue: "wallpaper") == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Payload.self, from: Data(#"{"kind": "wallpaper", "settings": {}}"#.utf8))
        }
    }

    /// A device's stored policy keeps the shape it had before kinds declared how it is held:
    /// lists as lists, configurations per app, nothing for a kind it does not hold.
    @Test func aDevicePolicyIsStoredInItsEarlierShape() throws {
        let policy = DevicePolicy(ASAMAllowlist(appIdentifiers: ["com.example.exam"]), Analytics(enabled: false),
                                  ManagedAppConfiguration(appIdentifier: "com.example.notes"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(policy), as: UTF8.self)
        #expect(json == #"{"analytics":{"enabled":false},"appConfigurations":[{"appIdentifier":"com.example.notes","keys":[]}],"asamAllowlist":["com.example.exam"]}"#)
        #expect(String(decoding: try encoder.encode(DevicePolicy.empty), as: UTF8.self) == #"{"appConfigurations":[]}"#)
    }
}
