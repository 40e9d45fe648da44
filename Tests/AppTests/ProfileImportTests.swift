@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// A .mobileconfig uploaded on the profiles page: a new profile with what came across, the
/// signature checked and named, and refused files creating nothing.
@Suite struct ProfileImportTests {
    /// A kiosk profile with SDK settings: logging, and pinning `certificate` (DER).
    static func mobileconfig(identifier: String, certificate: [UInt8] = Array("not a certificate".utf8)) -> [UInt8] {
        let pinning = CertificatePinning(hosts: ["api.northwind.example"], certificates: [PinnedCertificate(unread: Data(certificate))])
        return Array(MobileConfig.xml(for: ProfileExportInput(
            identifier: identifier, uuid: "P", displayName: "Lobby kiosk", description: "", organization: "",
            payloads: [ExportedPayload(payload: Payload(SingleAppMode(appIdentifier: "com.example.checkin")), uuid: "U"),
                       ExportedPayload(payload: Payload(Logging()), uuid: "L"),
                       ExportedPayload(payload: Payload(pinning), uuid: "C")])).utf8)
    }

    func profiles(_ console: TestConsole) throws -> [ProfileRecord] {
        try console.services.database.readBlocking { try $0.fetch(ProfileRecord.query().order(by: "id")) }
    }

    @Test func signedAndUnsignedProfilesComeAcrossWithTheirSignatureNamed() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            let plain = try await admin.postMultipart("/profiles/import", [:], files: ["profile": ("lobby.mobileconfig", Self.mobileconfig(identifier: "com.example.lobby"))])
            #expect(plain.status == .created)
            #expect(plain.body.contains("Not signed") && plain.body.contains("Single App Mode"))
            // SDK settings come across; a pinned certificate that does not read is left out with the reason.
            #expect(plain.body.contains("The file is not an X.509 certificate in PEM or DER form."))
            let first = try #require(try profiles(console).first)
            #expect(first.identifier == "com.example.lobby" && first.payloadKinds == [.singleAppMode, .logging])

            // Signed by this console, with the same identifier, imported as a new profile: a new
            // identifier, the signer named; its certificate is read from its bytes.
            let certificate = try CertificatePinningFlowTests.certificate("api.der")
            let signed = try await console.services.signing.sign(Self.mobileconfig(identifier: "com.example.lobby", certificate: certificate))
            let again = try await admin.postMultipart("/profiles/import", ["destination": "new-profile"], files: ["profile": ("lobby-signed.mobileconfig", signed)])
            #expect(again.status == .created)
            #expect(again.body.contains("signature intact (this console&#39;s signing identity)") || again.body.contains("signature intact (this console's signing identity)"))
            #expect(try profiles(console).map(\.identifier) == ["com.example.lobby", "com.example.lobby.imported"])
            let second = try #require(try profiles(console).last)
            #expect(second.payloadKinds == [.singleAppMode, .logging, .certificatePinning])
            #expect(again.body.contains(#"<dd id="imported-payloads">Single App Mode, Logging, Certificate pinning</dd>"#))
            let version = try console.services.database.readBlocking { try ProfileReader.latestVersion(of: second.id, in: $0) }
            guard let pinning = version.content.settings(CertificatePinning.self) else { throw CancellationError() }
            #expect(pinning.certificates.first?.publicKeySHA256 == "VypSEiTGNN+o2RTrcTHOlzLQrA2VgWVmQ4Xglo6DM3k=")
            let audit = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().filter("action", .equal, "profile.imported")) }
            #expect(audit.count == 2)
        }
    }

    @Test func refusedFilesCreateNothing() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("val@example.com", role: .viewer)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            var tampered = try await console.services.signing.sign(Self.mobileconfig(identifier: "com.example.t"))
            let marker = Array("com.example.checkin".utf8)
            let at = try #require((0...(tampered.count - marker.count)).first { Array(tampered[$0..<($0 + marker.count)]) == marker })
            tampered[at + 12] = UInt8(ascii: "X")
            let cases: [([UInt8], String)] = [
                (tampered, "changed after signing"),
                (Array("bplist00\u{0}\u{1}".utf8), "Binary property lists are not read"),
                ([0x30, 0x82, 0x01], "This file is not a profile: it is neither an XML property list nor a signed profile."),
                // A picture, a text: not a profile, not a bad signature.
                ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00], "This file is not a profile: it is neither an XML property list nor a signed profile."),
                (Array("Shopping list: milk, eggs".utf8), "This file is not a profile"),
                (Array("<html><body>hello</body></html>".utf8), "This file is not a profile"),
                (Array("<plist version=\"1.0\"><dict><key>PayloadType</key><string>com.apple.wifi.managed</string></dict></plist>".utf8),
                 "This file is not a profile: this property list is not a configuration profile"),
                (Array("<!DOCTYPE p [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><plist><string>&e;</string></plist>".utf8), "Nothing was imported"),
                (Array("<plist version=\"1.0\"><dict><key>a</key></dict>".utf8), "Nothing was imported"),
                ([], "Choose a .mobileconfig"),
            ]
            for (bytes, message) in cases {
                let page = try await admin.postMultipart("/profiles/import", [:], files: ["profile": ("x.mobileconfig", bytes)])
                #expect(page.status == .unprocessableContent, "\(message)")
                #expect(page.body.contains(HTMLText.escape(message)), "\(message)")
                #expect(page.body.contains("The signature is not valid") == message.contains("after signing"), "not a profile is not a bad signature: \(message)")
            }
            #expect(try profiles(console).isEmpty)

            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            try await viewer.get("/profiles")
            let forbidden = try await viewer.postMultipart("/profiles/import", [:], files: ["profile": ("x.mobileconfig", Self.mobileconfig(identifier: "com.example.v"))])
            #expect(forbidden.status == .forbidden)
            #expect(try profiles(console).isEmpty)
        }
    }

    /// The same file twice does not silently make `….imported`: the console asks, the file
    /// riding along, and the answer makes a new version or a new profile.
    @Test func importingTheSameFileAgainAsksForANewVersionOrANewProfile() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            let file = Self.mobileconfig(identifier: "com.example.lobby")
            #expect(try await admin.postMultipart("/profiles/import", [:], files: ["profile": ("lobby.mobileconfig", file)]).status == .created)
            let first = try #require(try profiles(console).first)

            let again = try await admin.postMultipart("/profiles/import", [:], files: ["profile": ("lobby.mobileconfig", file)])
            #expect(again.status == .ok)
            #expect(again.body.contains("This profile is here already"))
            #expect(again.body.contains(#"value="version-\#(first.id)" checked> A new version of Lobby kiosk (com.example.lobby), now version 1"#))
            #expect(again.body.contains("A new profile, <code>com.example.lobby.imported</code>"))
            #expect(try profiles(console).count == 1, "asking writes nothing")
            let carried = try #require(again.body.components(separatedBy: #"name="fileData" value=""#).dropFirst().first?.components(separatedBy: "\"").first)
            #expect(Data(base64Encoded: carried) == Data(file))

            // A new version of the matching profile: its history grows, no second profile.
            let version = try await admin.postMultipart("/profiles/import", ["fileData": carried, "fileName": "lobby.mobileconfig", "destination": "version-\(first.id)"], files: [:])
            #expect(version.status == .created)
            #expect(version.body.contains("It is version 2 of this profile"))
            #expect(try profiles(console).map(\.identifier) == ["com.example.lobby"])
            #expect(try profiles(console).first?.version == 2)

            // Asked again, a new profile; a third time, the earlier import matches as well.
            let newOne = try await admin.postMultipart("/profiles/import", ["fileData": carried, "fileName": "lobby.mobileconfig", "destination": "new-profile"], files: [:])
            #expect(newOne.status == .created)
            #expect(try profiles(console).map(\.identifier) == ["com.example.lobby", "com.example.lobby.imported"])
            let third = try await admin.postMultipart("/profiles/import", [:], files: ["profile": ("lobby.mobileconfig", file)])
            #expect(third.body.contains("(com.example.lobby.imported), now version 1"), "a previous import of the file matches too")
            #expect(third.body.contains("<code>com.example.lobby.imported-2</code>"))

            // A carried file that is not base64, or a destination that is not offered, imports nothing.
            let broken = try await admin.postMultipart("/profiles/import", ["fileData": "%%%", "destination": "new-profile"], files: [:])
            #expect(broken.status == .unprocessableContent)
            let nonsense = try await admin.postMultipart("/profiles/import", ["fileData": carried, "destination": "version-abc"], files: [:])
            #expect(nonsense.status == .unprocessableContent)
            let missing = try await admin.postMultipart("/profiles/import", ["fileData": carried, "destination": "version-999999"], files: [:])
            #expect(missing.status == .unprocessableContent && missing.body.contains("does not exist"))
            #expect(try profiles(console).count == 2)
        }
    }
}
