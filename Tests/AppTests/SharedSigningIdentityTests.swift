@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Signing
import Storage
import Testing

/// The signing identity lives in the database, so consoles behind one load balancer — each
/// with its own data directory — sign every export with the same certificate.
@Suite struct SharedSigningIdentityTests {
    static let content = Array("<?xml version=\"1.0\"?><plist><dict/></plist>\n".utf8)

    /// Whose certificate signed what `console` signs now.
    static func signer(of console: TestConsole) async throws -> String? {
        try SignedProfile.read(try await console.services.signing.sign(content)).signerFingerprint
    }

    static func storedRows(_ console: TestConsole) async throws -> [StoredSigningIdentity] {
        try await console.services.database.read { try $0.fetch(StoredSigningIdentity.query()) }
    }

    static func auditActions(_ console: TestConsole) async throws -> [String] {
        try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .like, "signing.%").order(by: "id")) }
            .map(\.action)
    }

    @Test func twoConsolesOnOneDatabaseSignWithTheSameCertificateAndWriteNothingInTheirDataDirectories() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        let signedByFirst = try #require(try await Self.signer(of: first))
        #expect(try await Self.signer(of: second) == signedByFirst)
        #expect(try await Self.signer(of: first) == signedByFirst, "the one in memory is still the one stored")
        let rows = try await Self.storedRows(first)
        #expect(rows.count == 1 && rows.first?.origin == .generated)
        #expect(try await Self.auditActions(first) == ["signing.generated"])
        for console in [first, second] {
            #expect(!FileManager.default.fileExists(atPath: console.services.signing.filesDirectory), "nothing is written beside one instance")
        }
    }

    @Test func consolesRacingToTheirFirstSignatureEndWithOneIdentity() async throws {
        let first = try await TestConsole.make()
        var consoles = [first]
        for _ in 0..<3 { consoles.append(try await TestConsole.make(sharingDatabaseWith: first)) }
        #expect(try await Self.storedRows(first).isEmpty, "nothing is generated before something is signed")
        let racing = consoles
        let signers = try await withThrowingTaskGroup(of: String?.self) { group in
            for console in racing + racing {
                group.addTask { try await Self.signer(of: console) }
            }
            return try await group.reduce(into: Set<String?>()) { $0.insert($1) }
        }
        let rows = try await Self.storedRows(first)
        #expect(rows.count == 1)
        let stored = try SigningIdentity(certificatePEM: rows[0].certificatePEM, privateKeyPEM: rows[0].privateKeyPEM)
        #expect(signers == [stored.sha256Fingerprint], "every console signed with the one identity stored")
        #expect(try await Self.auditActions(first) == ["signing.generated"], "one was generated for good")
    }

    @Test func anIdentityUploadedThroughOneConsoleSignsTheOthersNextExport() async throws {
        let first = try await TestConsole.make()
        let second = try await TestConsole.make(sharingDatabaseWith: first)
        try await first.addUser("ann@example.com", role: .admin)
        let generated = try #require(try await Self.signer(of: second), "the second console holds the generated identity")
        let uploaded = try SigningIdentity.generateSelfSigned(commonName: "Example Corp Profiles", organization: "Example Corp")
        let mismatched = try SigningIdentity.generateSelfSigned(commonName: "Other", organization: "Other")
        try await first.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/signing")
            let refused = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(uploaded.certificatePEM.utf8)), "privateKey": ("key.pem", Array(mismatched.privateKeyPEM.utf8)),
            ])
            #expect(refused.status == .unprocessableContent)
            let replaced = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(uploaded.certificatePEM.utf8)), "privateKey": ("key.pem", Array(uploaded.privateKeyPEM.utf8)),
            ])
            #expect(replaced.status == .seeOther)
        }
        #expect(generated != uploaded.sha256Fingerprint)
        try await second.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            let created = try await admin.post("/profiles", ["name": "Lobby kiosk", "identifier": ""])
            let id = try #require(created.location?.split(separator: "/").last)
            let export = try await client.execute(uri: "/profiles/\(id)/versions/1/mobileconfig?signed=true", method: .get,
                                                  headers: [.cookie: admin.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")])
            #expect(export.status == .ok)
            let signed = try SignedProfile.read(Array(export.body.readableBytesView))
            #expect(signed.signerFingerprint == uploaded.sha256Fingerprint, "the other console's next export is signed by the upload")
            let page = try await admin.get("/signing")
            #expect(page.body.contains("Example Corp Profiles"))
            #expect(page.body.contains("Uploaded by ann@example.com just now."))
        }
        let entries = try await second.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .equal, "signing.replaced")) }
        #expect(entries.count == 1, "the refused pair changed nothing")
        #expect(entries.first?.before == "SHA-256 \(generated)" && entries.first?.after == "SHA-256 \(uploaded.sha256Fingerprint)")
    }

    /// What a console before migration 22 left: `<data-dir>/signing/cert.pem` and `key.pem`.
    static func olderDataDirectory(holding identity: SigningIdentity) throws -> URL {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        let signing = folder.appendingPathComponent("signing")
        try FileManager.default.createDirectory(at: signing, withIntermediateDirectories: true)
        try Data(identity.certificatePEM.utf8).write(to: signing.appendingPathComponent("cert.pem"))
        try Data(identity.privateKeyPEM.utf8).write(to: signing.appendingPathComponent("key.pem"))
        return folder
    }

    @Test func anOlderConsolesFilesAreAdoptedAtStartAndLeftWhereTheyWere() async throws {
        let older = try SigningIdentity.generateSelfSigned(commonName: "Clinic Profiles", organization: "Example Health Trust")
        let folder = try Self.olderDataDirectory(holding: older)
        let upgraded = try await TestConsole.make(keepFirstAdmin: true, dataDirectory: folder)
        let rows = try await Self.storedRows(upgraded)
        #expect(rows.count == 1 && rows.first?.origin == .adopted, "taken in at start, before anything was signed")
        #expect(try await Self.signer(of: upgraded) == older.sha256Fingerprint)
        let added = try await TestConsole.make(sharingDatabaseWith: upgraded)
        #expect(try await Self.signer(of: added) == older.sha256Fingerprint, "an instance without the files signs with them too")
        #expect(try await Self.auditActions(upgraded) == ["signing.adopted"])

        let key = folder.appendingPathComponent("signing/key.pem")
        #expect(try String(contentsOf: key, encoding: .utf8) == older.privateKeyPEM, "the files are left as they were")
        let restarted = try await TestConsole.make(sharingDatabaseWith: upgraded, dataDirectory: folder)
        #expect(try await Self.signer(of: restarted) == older.sha256Fingerprint)
        #expect(try await Self.auditActions(upgraded) == ["signing.adopted"], "adopted once")
    }

    @Test func filesThatDisagreeWithTheDatabaseLeaveTheDatabasesIdentityInUse() async throws {
        let first = try await TestConsole.make()
        let stored = try #require(try await Self.signer(of: first))
        let stray = try SigningIdentity.generateSelfSigned(commonName: "Stray", organization: "Elsewhere")
        let folder = try Self.olderDataDirectory(holding: stray)
        let second = try await TestConsole.make(sharingDatabaseWith: first, dataDirectory: folder)
        #expect(try await Self.signer(of: second) == stored)
        #expect(try await Self.storedRows(first).count == 1)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("signing/key.pem").path))
    }

    /// Files that do not read are no identity to adopt, and not one to replace silently either:
    /// the console starts, signing says why it cannot, and an upload mends it.
    @Test func unreadableFilesStopSigningUntilAnAdminUploadsAnIdentity() async throws {
        let folder = try Self.olderDataDirectory(holding: try SigningIdentity.generateSelfSigned(commonName: "Old", organization: "Old"))
        try Data("not a key".utf8).write(to: folder.appendingPathComponent("signing/key.pem"))
        let console = try await TestConsole.make(dataDirectory: folder)
        try await console.addUser("ann@example.com", role: .admin)
        await #expect(throws: SigningError.invalidPrivateKey) { try await console.services.signing.sign(Self.content) }
        #expect(try await Self.storedRows(console).isEmpty, "no identity was made up in their place")
        let uploaded = try SigningIdentity.generateSelfSigned(commonName: "Mended Profiles", organization: "Example Corp")
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let page = try await admin.get("/signing")
            #expect(page.status == .ok)
            #expect(page.body.contains(#"id="signing-problem""#) && page.body.contains("The private key is not a PEM-encoded"))
            let replaced = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(uploaded.certificatePEM.utf8)), "privateKey": ("key.pem", Array(uploaded.privateKeyPEM.utf8)),
            ])
            #expect(replaced.status == .seeOther)
            #expect(!(try await admin.get("/signing").body.contains(#"id="signing-problem""#)))
        }
        #expect(try await Self.signer(of: console) == uploaded.sha256Fingerprint)
        #expect(try String(contentsOf: folder.appendingPathComponent("signing/key.pem"), encoding: .utf8) == "not a key", "the files are left alone")
    }

    @Test func importingASignedProfileNeverGeneratesAnIdentity() async throws {
        let console = try await TestConsole.make()
        let foreign = try SigningIdentity.generateSelfSigned(commonName: "Vendor", organization: "Vendor")
        let file = UploadedFile(filename: "vendor.mobileconfig",
                                bytes: try ProfileSigner.sign(ProfileImportTests.mobileconfig(identifier: "com.example.vendor"), with: foreign))
        let answer = try await console.services.profileImporter.importProfile(file, by: .system)
        guard case .success = answer else {
            Issue.record("the signed profile was not imported: \(answer)")
            return
        }
        #expect(try await Self.storedRows(console).isEmpty)
    }
}
