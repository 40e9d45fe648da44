import Foundation
import Signing
import Testing

/// The MDM push certificate an admin uploads, as PEM or .p12 (modern and Keychain's legacy
/// encryption), made here with openssl in the shape Apple issues (`UID=com.apple.mgmt.…`).
@Suite(.enabled(if: Tools.hasOpenSSL)) struct PushCertificateTests {
    static let topic = "com.apple.mgmt.External.1b8ac5c4-55e0-4a6e-9d4f-3c1a0b7e2f11"

    /// A certificate and key in `cert.pem`/`key.pem`, with the given subject.
    func make(_ tools: Tools, subject: String = "/UID=\(topic)/CN=APSP:1b8ac5c4-55e0-4a6e-9d4f-3c1a0b7e2f11/C=US") throws {
        let command = [Tools.openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "key.pem", "-out", "cert.pem",
                       "-days", "365", "-subj", subject]
        guard tools.run(command) == 0 else { throw ToolFailure(message: tools.lastError) }
    }

    @Test func aPEMWithCertificateAndKeyInEitherOrderIsRead() throws {
        let tools = Tools()
        defer { tools.remove() }
        try make(tools)
        let certificate = try tools.read("cert.pem"), key = try tools.read("key.pem")
        let push = try PushCertificate.read(pem: certificate + key)
        #expect(push.topic == Self.topic)
        #expect(push.subject.contains("UID=\(Self.topic)"))
        #expect(push.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
        #expect(push.notAfter.timeIntervalSince(push.notBefore) > 364 * 86_400)
        #expect(try PushCertificate.read(pem: key + certificate) == push)
        // The PEMs it gives back read again as the same certificate.
        #expect(try PushCertificate.read(pem: Array((push.privateKeyPEM + push.certificatePEM).utf8)) == push)
    }

    @Test func aP12IsReadWithItsPasswordAndRefusedWithAnother() throws {
        let tools = Tools()
        defer { tools.remove() }
        try make(tools)
        let fromPEM = try PushCertificate.read(pem: try tools.read("cert.pem") + (try tools.read("key.pem")))
        for legacy in [false, true] {
            let export = [Tools.openssl, "pkcs12", "-export", "-in", "cert.pem", "-inkey", "key.pem", "-passout", "pass:s3cret",
                          "-out", "push.p12"] + (legacy ? ["-legacy"] : [])
            #expect(tools.run(export) == 0, "\(tools.lastError)")
            let p12 = try tools.read("push.p12")
            #expect(try PushCertificate.read(pkcs12: p12, password: "s3cret") == fromPEM, "legacy: \(legacy)")
            #expect(throws: PushCertificateError.wrongPassword) { try PushCertificate.read(pkcs12: p12, password: "wrong") }
            #expect(throws: PushCertificateError.notPKCS12) { try PushCertificate.read(pkcs12: Array(p12.dropLast(5)), password: "s3cret") }
        }
        #expect(throws: PushCertificateError.notPKCS12) { try PushCertificate.read(pkcs12: [], password: "") }
    }

    @Test func anotherKindOfCertificateIsNotAPushCertificate() throws {
        let tools = Tools()
        defer { tools.remove() }
        try make(tools, subject: "/UID=com.apple.pass.example/CN=Pass Type ID")
        #expect(throws: PushCertificateError.notAnMDMPushCertificate) {
            try PushCertificate.read(pem: try tools.read("cert.pem") + (try tools.read("key.pem")))
        }
        try make(tools, subject: "/CN=no topic at all")
        #expect(throws: PushCertificateError.notAnMDMPushCertificate) {
            try PushCertificate.read(pem: try tools.read("cert.pem") + (try tools.read("key.pem")))
        }
    }

    @Test func missingEncryptedOrForeignKeysAreRefusedByName() throws {
        let tools = Tools()
        defer { tools.remove() }
        try make(tools)
        let certificate = try tools.read("cert.pem"), key = try tools.read("key.pem")
        #expect(throws: PushCertificateError.noPrivateKey) { try PushCertificate.read(pem: certificate) }
        #expect(throws: PushCertificateError.noCertificate) { try PushCertificate.read(pem: key) }
        #expect(throws: PushCertificateError.noCertificate) { try PushCertificate.read(pem: Array("hello".utf8)) }
        #expect(tools.run([Tools.openssl, "pkey", "-in", "key.pem", "-aes256", "-passout", "pass:x", "-out", "encrypted.pem"]) == 0)
        #expect(throws: PushCertificateError.privateKeyEncrypted) { try PushCertificate.read(pem: certificate + (try tools.read("encrypted.pem"))) }
        try make(tools)
        #expect(throws: PushCertificateError.keyDoesNotMatchCertificate) { try PushCertificate.read(pem: certificate + (try tools.read("key.pem"))) }
    }
}
