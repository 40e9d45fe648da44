import Foundation
import Signing
import Testing

/// `Mdm-Signature` checks on signatures made as devices make them: SHA-256 and SHA-1, by
/// Python's `cryptography` and by openssl, over certificates our CA issued; each fault refused
/// in its own words.
@Suite(.enabled(if: Tools.hasOpenSSL)) struct MessageSignatureTests {
    static let now = CertificateAuthorityTests.now
    let authority = CertificateAuthorityTests.authority
    let body = Array("<?xml version=\"1.0\"?><plist><dict><key>MessageType</key><string>Authenticate</string></dict></plist>\n".utf8)

    @Test(.enabled(if: Tools.hasPythonCryptography), arguments: ["sha256", "sha1"])
    func aSignatureByPythonsCryptographyVerifies(digest: String) throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        let signer = try MessageSignature.verify(try device.pythonSignature(over: body, digest: digest), over: body, issuedBy: authority, at: Self.now)
        #expect(signer.der == device.certificate.der)
        #expect(signer.serialHex == device.certificate.serialHex)
        #expect(signer.commonName == "device-1234" && signer.subject == "CN=device-1234")
        #expect(signer.sha256Fingerprint == device.certificate.sha256Fingerprint)
        #expect(signer.notAfter == device.certificate.notAfter)
        // The builder's default signs the CRLF form of the text; the body is not that, and
        // the check does not canonicalise.
        let canonical = try device.pythonSignature(over: body, digest: digest, binary: false)
        #expect(throws: MessageSignatureError.bodyMismatch) { try MessageSignature.verify(canonical, over: body, issuedBy: authority, at: Self.now) }
    }

    @Test(arguments: [("sha1", [String]()), ("sha256", []), ("sha1", ["-noattr"])])
    func aSignatureByOpenSSLVerifies(digest: String, extra: [String]) throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        let signature = try device.opensslSignature(over: body, digest: digest, extra: extra)
        #expect(try MessageSignature.verify(signature, over: body, issuedBy: authority, at: Self.now).der == device.certificate.der)
    }

    @Test func aSignatureOverAnotherBodyIsRefused() throws {
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        var changed = body
        changed[changed.count - 2] ^= 0x20
        let detached = try device.opensslSignature(over: body, digest: "sha256")
        #expect(throws: MessageSignatureError.bodyMismatch) { try MessageSignature.verify(detached, over: changed, issuedBy: authority, at: Self.now) }
        #expect(throws: MessageSignatureError.bodyMismatch) { try MessageSignature.verify(detached, over: [], issuedBy: authority, at: Self.now) }
        // Content carried inside the signature must be the body itself.
        let attached = try device.opensslSignature(over: body, digest: "sha256", attached: true)
        #expect(try MessageSignature.verify(attached, over: body, issuedBy: authority, at: Self.now).der == device.certificate.der)
        #expect(throws: MessageSignatureError.bodyMismatch) { try MessageSignature.verify(attached, over: changed, issuedBy: authority, at: Self.now) }
    }

    @Test func aCertificateFromAnotherCAIsRefused() throws {
        let other = try CertificateAuthority.generate(commonName: "Other CA", organisation: "Tests", now: Self.now)
        let device = try DeviceSigner(authority: other, issuedAt: Self.now)
        defer { device.remove() }
        let signature = try device.opensslSignature(over: body, digest: "sha256")
        #expect(throws: MessageSignatureError.notIssuedByAuthority) { try MessageSignature.verify(signature, over: body, issuedBy: authority, at: Self.now) }
        #expect(try MessageSignature.verify(signature, over: body, issuedBy: other, at: Self.now).commonName == "device-1234")
    }

    @Test func anExpiredOrNotYetValidCertificateIsRefusedWithItsDates() throws {
        let issuedAt = Self.now.addingTimeInterval(10 * 86_400)
        let device = try DeviceSigner(authority: authority, issuedAt: issuedAt, days: 30)
        defer { device.remove() }
        let signature = try device.opensslSignature(over: body, digest: "sha256")
        let certificate = device.certificate
        #expect(throws: MessageSignatureError.expired(notAfter: certificate.notAfter)) {
            try MessageSignature.verify(signature, over: body, issuedBy: authority, at: issuedAt.addingTimeInterval(31 * 86_400))
        }
        #expect(throws: MessageSignatureError.notYetValid(notBefore: certificate.notBefore)) {
            try MessageSignature.verify(signature, over: body, issuedBy: authority, at: Self.now)
        }
        #expect(throws: MessageSignatureError.authorityNotValid) {
            try MessageSignature.verify(signature, over: body, issuedBy: authority, at: Self.now.addingTimeInterval(11 * 365 * 86_400))
        }
    }

    @Test func whatIsNoSignatureIsRefused() throws {
        #expect(throws: MessageSignatureError.notASignature) { try MessageSignature.verify([], over: body, issuedBy: authority) }
        #expect(throws: MessageSignatureError.notASignature) { try MessageSignature.verify(Array("MIIB".utf8), over: body, issuedBy: authority) }
        #expect(throws: MessageSignatureError.notASignature) { try MessageSignature.verify(authority.certificateDER, over: body, issuedBy: authority) }
        // A certificates-only SignedData has no signer.
        let degenerate = try SCEPResponse.degenerateCertificates([authority.certificateDER])
        #expect(throws: MessageSignatureError.notASignature) { try MessageSignature.verify(degenerate, over: body, issuedBy: authority) }
        // Signed without including the certificate (`-nocerts`): nothing to check it with.
        let device = try DeviceSigner(authority: authority, issuedAt: Self.now)
        defer { device.remove() }
        let bare = try device.opensslSignature(over: body, digest: "sha256", extra: ["-nocerts"])
        #expect(throws: MessageSignatureError.notASignature) { try MessageSignature.verify(bare, over: body, issuedBy: authority, at: Self.now) }
        var generator = SystemRandomNumberGenerator()
        let good = try device.opensslSignature(over: body, digest: "sha256")
        for _ in 0..<200 {
            var flipped = good
            flipped[Int.random(in: 0..<good.count, using: &generator)] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
            _ = try? MessageSignature.verify(flipped, over: body, issuedBy: authority, at: Self.now)
        }
        for length in stride(from: 0, to: good.count, by: 11) {
            #expect(throws: MessageSignatureError.self) { try MessageSignature.verify(Array(good.prefix(length)), over: body, issuedBy: authority, at: Self.now) }
        }
    }
}
