import Foundation
import Signing
import Testing

/// The console's device CA: generated or uploaded, checked, and issuing device certificates
/// that OpenSSL's own verifier accepts as chaining to it.
@Suite struct CertificateAuthorityTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)  // 2026-09
    static let authority = try! CertificateAuthority.generate(commonName: "Test Device CA", organisation: "Tests", now: now)

    @Test func aGeneratedCAIsSelfSignedForTenYearsAndReadsBack() throws {
        let ca = Self.authority
        #expect(ca.subject == "CN=Test Device CA,O=Tests")
        let years = ca.notAfter.timeIntervalSince(Self.now) / (365.25 * 86_400)
        #expect(years > 9.9 && years < 10.1)
        #expect(ca.sha256Fingerprint.split(separator: ":").count == 32)
        #expect(ca.certificatePEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(ca.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(try CertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: ca.privateKeyPEM, now: Self.now) == ca)
    }

    @Test(.enabled(if: Tools.hasOpenSSL)) func theGeneratedCAHasTheExtensionsSCEPClientsCheck() throws {
        let tools = Tools()
        defer { tools.remove() }
        try tools.write(Self.authority.certificateDER, to: "ca.der")
        #expect(tools.run([Tools.openssl, "x509", "-inform", "DER", "-in", "ca.der", "-noout", "-text", "-out", "ca.txt"]) == 0)
        let text = String(decoding: try tools.read("ca.txt"), as: UTF8.self)
        #expect(text.contains("CA:TRUE"))
        #expect(text.contains("Digital Signature, Key Encipherment, Certificate Sign, CRL Sign"))
        #expect(text.contains("Subject Key Identifier"))
        #expect(text.contains("sha256WithRSAEncryption"))
    }

    @Test func anUploadedCAIsRefusedWithAReasonForEachFault() throws {
        let ca = Self.authority
        let other = try CertificateAuthority.generate(commonName: "Other CA", organisation: "Tests", now: Self.now)
        #expect(throws: CertificateAuthorityError.keyDoesNotMatchCertificate) {
            try CertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: other.privateKeyPEM, now: Self.now)
        }
        #expect(throws: CertificateAuthorityError.invalidCertificate) {
            try CertificateAuthority(certificatePEM: "garbage", privateKeyPEM: ca.privateKeyPEM, now: Self.now)
        }
        #expect(throws: CertificateAuthorityError.invalidPrivateKey) {
            try CertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: "garbage", now: Self.now)
        }
        let later = Self.now.addingTimeInterval(11 * 365 * 86_400)
        #expect(throws: CertificateAuthorityError.expired(notAfter: ca.notAfter)) {
            try CertificateAuthority(certificatePEM: ca.certificatePEM, privateKeyPEM: ca.privateKeyPEM, now: later)
        }
        // The profile-signing identity is a leaf (CA:FALSE): a fine key, but no CA.
        let leaf = try SigningIdentity.generateSelfSigned(commonName: "Leaf", organization: "Tests")
        #expect(throws: CertificateAuthorityError.notACertificateAuthority) {
            try CertificateAuthority(certificatePEM: leaf.certificatePEM, privateKeyPEM: leaf.privateKeyPEM)
        }
        #expect(CertificateAuthorityError.notACertificateAuthority.description.contains("CA:TRUE"))
        #expect(CertificateAuthorityError.expired(notAfter: ca.notAfter).description.contains("2036"))
    }

    @Test(.enabled(if: Tools.hasOpenSSL)) func anIssuedCertificateIsALeafForClientAuthThatChainsToTheCA() throws {
        let tools = Tools()
        defer { tools.remove() }
        let request = try CertificateRequest(der: try tools.makeRequest(commonName: "asked-for"))
        let issued = try Self.authority.issue(request, subjectCommonName: "device-1234", now: Self.now)
        #expect(issued.subject == "CN=device-1234")
        #expect(issued.serialHex.count == 32 && issued.serialHex.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(abs(issued.notAfter.timeIntervalSince(Self.now) - 365 * 86_400) < 1)
        #expect(try Self.authority.issue(request, now: Self.now).subject == "CN=asked-for")
        #expect(try Self.authority.issue(request, now: Self.now).serialHex != issued.serialHex)

        try tools.write(issued.der, to: "leaf.der")
        try tools.write(Self.authority.certificatePEM, to: "ca.pem")
        #expect(tools.run([Tools.openssl, "x509", "-inform", "DER", "-in", "leaf.der", "-out", "leaf.pem"]) == 0)
        #expect(tools.run([Tools.openssl, "x509", "-in", "leaf.pem", "-noout", "-text", "-out", "leaf.txt"]) == 0)
        let text = String(decoding: try tools.read("leaf.txt"), as: UTF8.self)
        #expect(text.contains("CA:FALSE") && text.contains("TLS Web Client Authentication"))
        #expect(text.contains("Digital Signature, Key Encipherment"))
        #expect(text.contains("Authority Key Identifier"))
        let verify = [Tools.openssl, "verify", "-attime", "\(Int(Self.now.timeIntervalSince1970) + 60)", "-CAfile", "ca.pem", "leaf.pem"]
        #expect(tools.run(verify) == 0, "\(tools.lastError)")
        // The certificate carries the request's key.
        #expect(tools.run([Tools.openssl, "x509", "-in", "leaf.pem", "-pubkey", "-noout", "-out", "leaf-key.pem"]) == 0)
        #expect(tools.run([Tools.openssl, "pkey", "-pubin", "-in", "leaf-key.pem", "-outform", "DER", "-out", "leaf-key.der"]) == 0)
        #expect(try tools.read("leaf-key.der") == request.publicKeyDER)
    }
}
