import Foundation
import Signing
import Testing

@Suite struct ProfileSignerTests {
    static let identity = try! SigningIdentity.generateSelfSigned(commonName: "Test Signing", organization: "Tests")
    let content = Array("<?xml version=\"1.0\"?><plist><dict/></plist>\n".utf8)

    @Test func aSignedProfileVerifiesAndCarriesTheExactBytes() throws {
        let signed = try ProfileSigner.sign(content, with: Self.identity)
        #expect(try ProfileSigner.verifiedContent(of: signed) == content)
        #expect(Self.identity.subject.contains("CN=Test Signing"))
        #expect(Self.identity.sha256Fingerprint.split(separator: ":").count == 32)
    }

    @Test func theOpenSSLCommandAcceptsTheSignature() throws {
        guard FileManager.default.fileExists(atPath: "/usr/bin/openssl") else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let signedFile = folder.appendingPathComponent("profile.mobileconfig"), outFile = folder.appendingPathComponent("out.plist")
        try Data(try ProfileSigner.sign(content, with: Self.identity)).write(to: signedFile)
        let status = Self.run(["/usr/bin/openssl", "cms", "-verify", "-inform", "DER", "-noverify", "-in", signedFile.path, "-out", outFile.path])
        #expect(status == 0)
        #expect(try Array(Data(contentsOf: outFile)) == content)
    }

    @Test func aTamperedSignatureIsRefused() throws {
        var signed = try ProfileSigner.sign(content, with: Self.identity)
        // Change one byte of the attached profile: its digest no longer matches the signature.
        let start = try #require((0...(signed.count - content.count)).first { Array(signed[$0..<$0 + content.count]) == content })
        signed[start + 10] ^= 0x01
        #expect(throws: SigningError.self) { try ProfileSigner.verifiedContent(of: signed) }
    }

    @Test func aKeyFromAnotherIdentityIsRejected() throws {
        let other = try SigningIdentity.generateSelfSigned(commonName: "Other", organization: "Tests")
        #expect(throws: SigningError.keyDoesNotMatchCertificate) {
            try SigningIdentity(certificatePEM: Self.identity.certificatePEM, privateKeyPEM: other.privateKeyPEM)
        }
        #expect(throws: SigningError.invalidCertificate) { try SigningIdentity(certificatePEM: "garbage", privateKeyPEM: other.privateKeyPEM) }
        #expect(throws: SigningError.invalidPrivateKey) { try SigningIdentity(certificatePEM: other.certificatePEM, privateKeyPEM: "garbage") }
    }

    /// What a console before the database kept its identity there left in `<data-dir>/signing`.
    @Test func filesAnOlderConsoleLeftAreReadBackAndMissingOnesAreNone() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try SigningIdentity.load(fromDirectory: folder.path) == nil)
        try Data(Self.identity.certificatePEM.utf8).write(to: folder.appendingPathComponent("cert.pem"))
        #expect(try SigningIdentity.load(fromDirectory: folder.path) == nil, "a certificate without its key is no identity")
        try Data(Self.identity.privateKeyPEM.utf8).write(to: folder.appendingPathComponent("key.pem"))
        #expect(try SigningIdentity.load(fromDirectory: folder.path)?.sha256Fingerprint == Self.identity.sha256Fingerprint)

        let other = try SigningIdentity.generateSelfSigned(commonName: "Other", organization: "Tests")
        try Data(other.privateKeyPEM.utf8).write(to: folder.appendingPathComponent("key.pem"))
        #expect(throws: SigningError.keyDoesNotMatchCertificate) { try SigningIdentity.load(fromDirectory: folder.path) }
    }

    /// Runs a command, its errors to /dev/null, and answers its wait status (0: exited with 0).
    /// `posix_spawn`, not Foundation's `Process`: `Process.run` crashed once in CI (a bad
    /// pointer in memcpy) while the suites beside it opened and closed descriptors by the hundred.
    static func run(_ arguments: [String]) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, arguments[0], &actions, nil, &argv, environ) == 0 else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }
}
