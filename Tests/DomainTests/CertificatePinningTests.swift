import Domain
import Foundation
import Testing

/// Pinning as an SDK app applies it: listed hosts connect only with a pinned public key,
/// dates are checked first, other hosts fall back to ordinary trust; and the payload's checks.
@Suite struct CertificatePinningTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18
    let year: TimeInterval = 365 * 86_400

    func certificate(key: String, subject: String = "CN=api.example.com", expiresIn: TimeInterval = 365 * 86_400) -> PinnedCertificate {
        PinnedCertificate(der: Data(key.utf8), subject: subject, issuer: "CN=Example CA",
                          notBefore: now.addingTimeInterval(-year), notAfter: now.addingTimeInterval(expiresIn), publicKeySHA256: key)
    }

    var pinning: CertificatePinning {
        CertificatePinning(hosts: ["api.example.com", "*.files.example.com"], certificates: [certificate(key: "current"), certificate(key: "backup")])
    }

    func connect(_ host: String, key: String, from: TimeInterval = -86_400, until: TimeInterval = 86_400) -> CertificatePinning.Connection {
        pinning.connect(host: host, publicKeySHA256: key, validFrom: now.addingTimeInterval(from), validUntil: now.addingTimeInterval(until), at: now)
    }

    @Test func aListedHostConnectsWithAnyPinnedKey() {
        #expect(connect("api.example.com", key: "current") == .pinned(certificate(key: "current")))
        #expect(connect("API.Example.com", key: "backup") == .pinned(certificate(key: "backup")))
        #expect(connect("eu.files.example.com", key: "current") == .pinned(certificate(key: "current")))
    }

    @Test func aListedHostWithAnotherKeyIsRefused() {
        // The man in the middle: a certificate the device might trust, but not a pinned key.
        #expect(connect("api.example.com", key: "interceptor") == .refusedKey)
        #expect(connect("eu.files.example.com", key: "interceptor") == .refusedKey)
    }

    @Test func hostsNotListedAreLeftToOrdinaryTrust() {
        #expect(connect("www.example.com", key: "interceptor") == .notPinned)
        // `*.files.example.com` covers hosts under the domain, not the domain itself.
        #expect(connect("files.example.com", key: "interceptor") == .notPinned)
        var off = pinning
        off.enabled = false
        #expect(off.connect(host: "api.example.com", publicKeySHA256: "interceptor", validFrom: now, validUntil: now, at: now) == .notPinned)
    }

    @Test func aCertificateOutsideItsDatesFailsEvenWithAPinnedKey() {
        #expect(connect("api.example.com", key: "current", from: -2 * year, until: -86_400) == .refusedDates)
        #expect(connect("api.example.com", key: "current", from: 86_400, until: year) == .refusedDates)
        #expect(connect("www.example.com", key: "other", from: -2 * year, until: -1) == .refusedDates)
    }

    @Test func anExpiredPinnedCertificateIsAWarningNotAnError() {
        let expired = certificate(key: "old", subject: "CN=legacy.example.com", expiresIn: -30 * 86_400)
        let payload = CertificatePinning(hosts: ["legacy.example.com"], certificates: [expired])
        #expect(payload.validate().isEmpty)
        let warnings = payload.warnings(at: now)
        #expect(warnings.count == 1)
        #expect(warnings[0].hasPrefix("CN=legacy.example.com: This certificate expired on 2026-10-19."))
        #expect(pinning.warnings(at: now).isEmpty)
    }

    @Test func hostsAndCertificatesAreChecked() {
        #expect(CertificatePinning(hosts: [], certificates: [certificate(key: "a")]).validate()["hosts"] != nil)
        #expect(CertificatePinning(hosts: ["api.example.com"], certificates: []).validate()["certificates"] != nil)
        #expect(CertificatePinning(enabled: false).validate().isEmpty)
        let bad = CertificatePinning(hosts: ["api.example.com", "API.example.com", "api..example.com", "*.*.example.com", "https://x.example.com"],
                                     certificates: [certificate(key: "a"), certificate(key: "a")])
        let errors = bad.validate()
        #expect(errors["hosts.0"] == nil)
        #expect(errors["hosts.1"] == "API.example.com is already in the list.")
        #expect(errors["hosts.2"] != nil && errors["hosts.3"] != nil && errors["hosts.4"] != nil)
        #expect(errors["certificates"] == "The same certificate is uploaded twice.")
        let many = CertificatePinning(hosts: ["a.example.com"], certificates: (0...CertificatePinning.maximumCertificates).map { certificate(key: "k\($0)") })
        #expect(many.validate()["certificates"] != nil)
    }

    @Test func aClientSendsOnlyTheCertificateAndTheRestIsFilledLater() throws {
        let json = #"{"enabled": true, "hosts": ["api.example.com"], "certificates": [{"der": "MIIB"}]}"#
        let decoded = try JSONDecoder().decode(CertificatePinning.self, from: Data(json.utf8))
        #expect(decoded.certificates[0].der == Data(base64Encoded: "MIIB"))
        #expect(decoded.certificates[0].publicKeySHA256.isEmpty && decoded.certificates[0].subject.isEmpty)
    }

    @Test func theSDKProfileCarriesHostsKeysAndCertificates() throws {
        let input = ProfileExportInput(identifier: "com.example.pins", uuid: "U", displayName: "Pins", description: "",
                                       organization: "Example", payloads: [ExportedPayload(payload: Payload(pinning), uuid: "P")])
        let json = try #require(try JSONSerialization.jsonObject(with: SDKProfile.json(for: input)) as? [String: Any])
        let entry = try #require(json["CertificatePinning"] as? [String: Any])
        #expect(entry["Hosts"] as? [String] == ["api.example.com", "*.files.example.com"])
        let certificates = try #require(entry["Certificates"] as? [[String: Any]])
        #expect(certificates.map { $0["PublicKeySHA256"] as? String } == ["current", "backup"])
        #expect(certificates[0]["Data"] as? String == Data("current".utf8).base64EncodedString())
    }
}
