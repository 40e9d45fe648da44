import Foundation
@testable import Signing
import Testing

/// A verifier kept for many messages checks a certificate's chain once; after that only the
/// signature (`QuickSignatureCheck`). The quick check must accept nothing the full check
/// refuses: every case here is also put to a fresh verifier, which checks in full.
@Suite(.enabled(if: Tools.hasOpenSSL)) struct KnownSignerTests {
    static let now = CertificateAuthorityTests.now
    let authority = CertificateAuthorityTests.authority
    let body = Array("<?xml version=\"1.0\"?><plist><dict><key>Status</key><string>Idle</string></dict></plist>\n".utf8)
    let other = Array("<?xml version=\"1.0\"?><plist><dict><key>Status</key><string>Acknowledged</string></dict></plist>\n".utf8)

    private func quick(_ verifier: SignatureVerifier, _ signature: [UInt8], over body: [UInt8], at time: Date = Self.now) -> String? {
        QuickSignatureCheck.serial(of: signature, over: body, by: verifier.known, at: time)
    }

    @Test(arguments: ["sha256", "sha1"])
    func aDevicesLaterMessagesAreCheckedByTheirSignatureAlone(digest: String) throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        let verifier = try SignatureVerifier(authority: authority)
        let first = try device.opensslSignature(over: body, digest: digest)
        #expect(quick(verifier, first, over: body) == nil)
        #expect(try verifier.verifiedSerial(of: first, over: body, at: Self.now) == device.certificate.serialHex)
        // From now on the quick check answers, for any message this certificate signs.
        #expect(quick(verifier, first, over: body) == device.certificate.serialHex)
        let next = try device.opensslSignature(over: other, digest: digest)
        #expect(quick(verifier, next, over: other) == device.certificate.serialHex)
        #expect(try verifier.verifiedSerial(of: next, over: other, at: Self.now) == device.certificate.serialHex)
        if Tools.hasPythonCryptography {
            #expect(quick(verifier, try device.pythonSignature(over: other, digest: digest), over: other) == device.certificate.serialHex)
        }
    }

    @Test func aKnownCertificateDoesNotMakeAWrongSignatureRight() throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now, days: 30)
        defer { device.remove() }
        let verifier = try SignatureVerifier(authority: authority)
        let good = try device.opensslSignature(over: body, digest: "sha256")
        _ = try verifier.verifiedSerial(of: good, over: body, at: Self.now)

        #expect(throws: MessageSignatureError.bodyMismatch) { try verifier.verifiedSerial(of: good, over: other, at: Self.now) }
        var changedSignature = good
        changedSignature[changedSignature.count - 5] ^= 0x01  // inside the RSA signature, the last field
        #expect(quick(verifier, changedSignature, over: body) == nil)
        #expect(throws: MessageSignatureError.bodyMismatch) { try verifier.verifiedSerial(of: changedSignature, over: body, at: Self.now) }
        // Past the certificate's last day it is refused as expired, known or not.
        let later = Self.now.addingTimeInterval(31 * 86_400)
        #expect(quick(verifier, good, over: body, at: later) == nil)
        #expect(throws: MessageSignatureError.expired(notAfter: device.certificate.notAfter)) {
            try verifier.verifiedSerial(of: good, over: body, at: later)
        }
    }

    /// Another device (or anyone with a certificate of this CA) copies a known device's
    /// certificate into its own signature: the key does not match, so it is refused.
    @Test func anotherKeyCarryingAKnownCertificateIsRefused() throws {
        let victim = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { victim.remove() }
        let attacker = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { attacker.remove() }
        let verifier = try SignatureVerifier(authority: authority)
        _ = try verifier.verifiedSerial(of: try victim.opensslSignature(over: body, digest: "sha256"), over: body, at: Self.now)

        let forged = try #require(Self.replacing(attacker.certificate.der, with: victim.certificate.der,
                                                 in: try attacker.opensslSignature(over: other, digest: "sha256")))
        #expect(quick(verifier, forged, over: other) == nil)
        #expect(throws: MessageSignatureError.self) { try verifier.verifiedSerial(of: forged, over: other, at: Self.now) }
        #expect(throws: MessageSignatureError.self) { try SignatureVerifier(authority: authority).verifiedSerial(of: forged, over: other, at: Self.now) }
    }

    /// Damage anywhere in a known device's signature: whatever the quick check accepts, the
    /// full check (a verifier that knows no one) accepts as well.
    @Test func theQuickCheckAcceptsNothingTheFullCheckRefuses() throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        let verifier = try SignatureVerifier(authority: authority)
        let good = try device.opensslSignature(over: body, digest: "sha256")
        _ = try verifier.verifiedSerial(of: good, over: body, at: Self.now)
        var generator = SystemRandomNumberGenerator()
        var acceptedQuickly = 0
        for _ in 0..<300 {
            var damaged = good
            damaged[Int.random(in: 0..<good.count, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            guard let serial = quick(verifier, damaged, over: body) else { continue }
            acceptedQuickly += 1
            let full = try? SignatureVerifier(authority: authority).verifiedSerial(of: damaged, over: body, at: Self.now)
            #expect(full == serial, "the quick check accepted a signature the full check refuses")
        }
        // Damage in the signed parts or the signature is refused; some bytes (the version, the
        // signing time's form) the quick check does not read, so a few may pass both.
        #expect(acceptedQuickly < 30)
    }

    private static func replacing(_ old: [UInt8], with new: [UInt8], in bytes: [UInt8]) -> [UInt8]? {
        guard old.count == new.count, let start = (0...(bytes.count - old.count)).first(where: { bytes[$0..<$0 + old.count].elementsEqual(old) }) else {
            return nil
        }
        var replaced = bytes
        replaced.replaceSubrange(start..<start + old.count, with: new)
        return replaced
    }
}
