@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Signing
import Testing

@Suite struct BrandingTests {
    /// The start of a 64 × 32 PNG: signature and IHDR chunk, which is what the inspector reads.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        + [0, 0, 0, 64, 0, 0, 0, 32, 8, 6, 0, 0, 0, 0, 0, 0, 0]

    /// Signs Ann in, creates a profile and opens its branding form; the profile's id.
    static func brandingForm(of name: String, as admin: Browser) async throws -> Substring {
        try await admin.signIn("ann@example.com", password: TestConsole.password)
        try await admin.get("/profiles")
        let created = try await admin.post("/profiles", ["name": name, "identifier": ""])
        let id = try #require(created.location?.split(separator: "/").last)
        try await admin.get("/profiles/\(id)/payloads/branding")
        return id
    }

    @Test func logosAreCheckedByContentAndAFixedFormKeepsTheUpload() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            let id = try await Self.brandingForm(of: "Brand", as: admin)

            let fields = ["baseVersion": "1", "enabled": "on", "red": "300", "green": "139", "blue": "48", "alpha": "255", "intent": "save"]
            let refused = try await admin.postMultipart("/profiles/\(id)/payloads/branding", fields, files: [
                "appLogo1x": ("logo.png", Self.png),
                "splashLogo1x": ("notes.png", Array("just text".utf8)),
            ])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("notes.png is not a PNG or JPEG image."))
            // The message sits beside Red and is linked to Red, not to the colour picker.
            #expect(refused.body.contains(#"aria-invalid="true" aria-describedby="branding-red-error""#) && refused.body.contains(#"id="branding-red-error""#))
            #expect(!refused.body.contains(#"branding-green-error"#))
            #expect(refused.body.contains(#"value="300""#))
            #expect(refused.body.contains("64 × 32 px, PNG"))

            var fixed = fields
            fixed["red"] = "238"
            let keyStart = try #require(refused.body.range(of: #"name="appLogo1x.current" value=""#))
            fixed["appLogo1x.current"] = String(refused.body[keyStart.upperBound...].prefix { $0 != "\"" })
            let saved = try await admin.postMultipart("/profiles/\(id)/payloads/branding", fixed, files: [:])
            #expect(saved.status == .seeOther)
            let image = try await admin.get("/images/\(fixed["appLogo1x.current"]!)")
            #expect(image.headers[.contentType] == "image/png")
        }
        let latest = try console.services.database.readBlocking { try $0.fetchOne(ProfileVersionRecord.query().order(by: "number", .descending)) }
        guard let branding = latest?.content.settings(Branding.self) else {
            Issue.record("branding was not saved")
            return
        }
        #expect(branding.primaryColor == RGBAColor(red: 238, green: 139, blue: 48))
        #expect(branding.appLogo1x?.width == 64)
        #expect(branding.splashLogo1x == nil)
    }

    /// A form left open past the daily sweep names an upload that is gone: saving says so beside
    /// the logo instead of saving the payload without it.
    @Test func aFormNamingAnUploadNoLongerStoredAsksForItAgain() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            let id = try await Self.brandingForm(of: "Brand", as: admin)
            let fields = ["baseVersion": "1", "enabled": "on", "red": "238", "green": "139", "blue": "48", "alpha": "255", "intent": "save",
                          "appLogo1x.current": "0d9c4a52-5b7e-4f0e-9a51-swept"]
            let refused = try await admin.postMultipart("/profiles/\(id)/payloads/branding", fields, files: [:])
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("The image chosen for this logo is no longer stored; choose it again."))
        }
        #expect(try console.services.database.readBlocking { try $0.count(ProfileVersionRecord.query()) } == 1, "nothing saved")
    }
}

@Suite struct SigningPageTests {
    @Test func anAdminReplacesTheIdentityOnlyWithAMatchingPair() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let ours = try SigningIdentity.generateSelfSigned(commonName: "Example Corp Profiles", organization: "Example Corp")
        let other = try SigningIdentity.generateSelfSigned(commonName: "Other", organization: "Other")
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let page = try await admin.get("/signing")
            #expect(page.body.contains("Payload Console Profile Signing"))
            let mismatched = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(ours.certificatePEM.utf8)), "privateKey": ("key.pem", Array(other.privateKeyPEM.utf8)),
            ])
            #expect(mismatched.status == .unprocessableContent)
            #expect(mismatched.body.contains("does not belong to this certificate"))
            try await admin.get("/signing")
            let replaced = try await admin.postMultipart("/signing", [:], files: [
                "certificate": ("cert.pem", Array(ours.certificatePEM.utf8)), "privateKey": ("key.pem", Array(ours.privateKeyPEM.utf8)),
            ])
            #expect(replaced.status == .seeOther)
            #expect(try await admin.get("/signing").body.contains("Example Corp Profiles"))
        }
        #expect(try await console.services.signing.current().identity.sha256Fingerprint == ours.sha256Fingerprint)
    }
}

@Suite struct ManagedAppConfigFormTests {
    @Test func valuesAreCheckedAgainstTheirConstraintsBeforeSaving() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/profiles")
            let created = try await admin.post("/profiles", ["name": "Config", "identifier": ""])
            let id = try #require(created.location?.split(separator: "/").last)
            let form = try await admin.get("/profiles/\(id)/payloads/managed-app-config")
            // Its help page sits beside the form, rendered from docs/help.
            #expect(form.body.contains("<strong>no secrets</strong>"))
            var fields = ["baseVersion": "1", "app": "com.example.clinicnotes", "keyName": "syncMinutes", "keyType": "integer",
                          "keyRequired": "yes", "keyMinimum": "5", "keyMaximum": "60", "keyAllowed": "", "keyPattern": "",
                          "keyValue": "90", "intent": "save"]
            let refused = try await admin.post("/profiles/\(id)/payloads/managed-app-config", fields)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains("The value must be at most 60."))
            #expect(refused.body.contains(#"id="key-0-value-error""#))

            fields["keyValue"] = "abc"
            let unreadable = try await admin.post("/profiles/\(id)/payloads/managed-app-config", fields)
            #expect(unreadable.body.contains("Enter a whole number"))

            fields["keyValue"] = "30"
            let saved = try await admin.post("/profiles/\(id)/payloads/managed-app-config", fields)
            #expect(saved.status == .seeOther)
        }
        let latest = try console.services.database.readBlocking { try $0.fetchOne(ProfileVersionRecord.query().order(by: "number", .descending)) }
        guard let config = latest?.content.settings(ManagedAppConfiguration.self) else {
            Issue.record("the configuration was not saved")
            return
        }
        #expect(config.dictionary == .dictionary([("syncMinutes", .integer(30))]))
    }
}
