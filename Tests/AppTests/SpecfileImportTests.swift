@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// An AppConfig specfile uploaded on an app's page: kept as the app's keys, refused whole with
/// its line and reason, and turned into the managed app configuration form's rows.
@Suite struct SpecfileImportTests {
    static let specfile = """
        <managedAppConfiguration>
          <version>2</version>
          <bundleId>com.example.clinicnotes</bundleId>
          <dict>
            <string keyName="serverURL"><defaultValue><value>https://notes.example.com</value></defaultValue></string>
            <integer keyName="sessionMinutes"><defaultValue><value>30</value></defaultValue><constraint min="5" max="480"/></integer>
          </dict>
          <presentation defaultLocale="en-US">
            <field keyName="serverURL" type="input"><description><language value="en-US">Where notes sync.</language></description></field>
          </presentation>
        </managedAppConfiguration>
        """

    func app(_ console: TestConsole) throws -> RecordID<AppRecord> {
        try console.services.database.writeBlocking { connection in
            try connection.insert(AppRecord(name: "Clinic Notes", bundleID: "com.example.clinicnotes", isManaged: true, isSDKBuilt: true,
                                            hasAssessmentEntitlement: false, iconColor: "", createdAt: Date())).id
        }
    }

    func stored(_ console: TestConsole) throws -> AppConfigSpecRecord? {
        try console.services.database.readBlocking { try $0.fetchOne(AppConfigSpecRecord.query()) }
    }

    @Test func aSpecfileIsKeptAsTheAppsKeysAndFillsTheForm() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let appID = try app(console)
        let profile = try await ProfileStore(database: console.services.database, now: { Date() })
            .create(identifier: "com.example.notes", content: ProfileContent(name: "Notes"), by: .system)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/apps/\(appID)/edit")
            let imported = try await admin.postMultipart("/apps/\(appID)/specfile", [:],
                                                         files: ["specfile": ("clinic.xml", Array(Self.specfile.utf8))])
            #expect(imported.status == .seeOther)
            let spec = try #require(try stored(console))
            #expect(spec.fileName == "clinic.xml" && spec.spec.keys.map(\.name) == ["serverURL", "sessionMinutes"])
            let page = try await admin.get("/apps/\(appID)/edit")
            #expect(page.body.contains("Where notes sync.") && page.body.contains("min 5; max 480"))
            let audit = try console.services.database.readBlocking { try $0.fetchOne(AuditEvent.query().filter("action", .equal, "app.specfile")) }
            #expect(audit?.after == "version 2, 2 keys")

            // The form's rows come from the specfile; a value already typed is kept.
            try await admin.get("/profiles/\(profile.id)/payloads/managed-app-config")
            let filled = try await admin.post("/profiles/\(profile.id)/payloads/managed-app-config", pairs: [
                ("baseVersion", "1"), ("app", "com.example.clinicnotes"), ("intent", "specfile"),
                ("keyName", "sessionMinutes"), ("keyType", "integer"), ("keyRequired", "no"), ("keyMinimum", ""), ("keyMaximum", ""),
                ("keyAllowed", ""), ("keyPattern", ""), ("keyValue", "45"), ("keyDescription", ""),
            ])
            #expect(filled.status == .ok)
            #expect(filled.body.contains(#"value="serverURL""#) && filled.body.contains("Where notes sync."))
            #expect(filled.body.contains(#"name="keyValue.1" type="number" step="1" min="5" max="480" value="45""#), "the typed value stays")
            #expect(filled.body.contains(#"id="key-1-min" name="keyMinimum" type="text" inputmode="decimal" value="5""#))
        }
    }

    @Test func aRefusedSpecfileChangesNothingAndSaysWhereAndWhy() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("val@example.com", role: .viewer)
        let appID = try app(console)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/apps/\(appID)/edit")
            let broken = Self.specfile.replacingOccurrences(of: "<value>30</value>", with: "<value>thirty</value>")
            let cases: [([UInt8], String)] = [
                (Array(broken.utf8), "Line 6: sessionMinutes: the default thirty"),
                (Array(Self.specfile.replacingOccurrences(of: "com.example.clinicnotes", with: "com.example.other").utf8), "describes com.example.other, not com.example.clinicnotes"),
                ([0xFF, 0xD8, 0xFF, 0xE0, 0x00], "not a text file"),
                (Array("<!DOCTYPE x [<!ENTITY e SYSTEM \"file:///etc/passwd\">]><x>&e;</x>".utf8), "Line 1"),
                ([], "Choose a specfile"),
            ]
            for (bytes, message) in cases {
                let page = try await admin.postMultipart("/apps/\(appID)/specfile", [:], files: ["specfile": ("spec.xml", bytes)])
                #expect(page.status == .unprocessableContent)
                #expect(page.body.contains("Nothing was imported.") && page.body.contains(HTMLText.escape(message)), "\(message)")
            }
            #expect(try stored(console) == nil)

            let viewer = Browser(client)
            try await viewer.signIn("val@example.com", password: TestConsole.password)
            try await viewer.get("/apps")
            let forbidden = try await viewer.postMultipart("/apps/\(appID)/specfile", [:], files: ["specfile": ("spec.xml", Array(Self.specfile.utf8))])
            #expect(forbidden.status == .forbidden)
            #expect(try stored(console) == nil)
        }
    }

    /// The form built from a specfile asks for each value as the spec presents it: a tick box
    /// for a boolean, a list for allowed values, a number box with the spec's limits; and every
    /// refusal names its key.
    @Test func theFormPresentsEachKeyAsItsSpecSaysAndNamesTheKeyInEveryError() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let appID = try app(console)
        let profile = try await ProfileStore(database: console.services.database, now: { Date() })
            .create(identifier: "com.example.notes", content: ProfileContent(name: "Notes"), by: .system)
        let spec = """
            <managedAppConfiguration><version>1</version><bundleId>com.example.clinicnotes</bundleId><dict>
              <boolean keyName="allowPrinting"><defaultValue><value>true</value></defaultValue></boolean>
              <string keyName="theme"><defaultValue><value>light</value></defaultValue>
                <constraint><values><value>light</value><value>dark</value></values></constraint></string>
              <integer keyName="sessionMinutes"><defaultValue><value>30</value></defaultValue><constraint min="5" max="480"/></integer>
            </dict></managedAppConfiguration>
            """
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/apps/\(appID)/edit")
            #expect(try await admin.postMultipart("/apps/\(appID)/specfile", [:], files: ["specfile": ("spec.xml", Array(spec.utf8))]).status == .seeOther)
            let path = "/profiles/\(profile.id)/payloads/managed-app-config"
            try await admin.get(path)
            let filled = try await admin.post(path, pairs: [("baseVersion", "1"), ("app", "com.example.clinicnotes"), ("intent", "specfile")])
            #expect(filled.status == .ok)
            // A boolean: a hidden "false" then the tick box, so an unticked box still answers.
            #expect(filled.body.contains(#"<input type="hidden" name="keyValue.0" value="false">"#))
            #expect(filled.body.contains(#"id="key-0-value" name="keyValue.0" type="checkbox" value="true" checked"#))
            #expect(filled.body.contains(#"<label class="choice" for="key-0-value">"#), "every control has its label")
            // A list of allowed values: a select.
            #expect(filled.body.contains(#"<select id="key-1-value" name="keyValue.1""#))
            #expect(filled.body.contains(#"<option value="light" selected>light</option><option value="dark">dark</option>"#))
            // A number with the spec's limits.
            #expect(filled.body.contains(#"<label for="key-2-value">Value of sessionMinutes (from 5 to 480)</label>"#))
            #expect(filled.body.contains(#"name="keyValue.2" type="number" step="1" min="5" max="480" value="30""#))
            #expect(!filled.body.contains("<textarea id=\"key-"), "no key of this spec is a free text box")

            // Saved without JavaScript: the unticked box (only its hidden "false" is sent), a
            // choice, a number out of range — refused with the key named beside the field.
            var pairs: [(String, String)] = [("baseVersion", "1"), ("app", "com.example.clinicnotes"), ("intent", "save")]
            for (index, key) in [("allowPrinting", "boolean"), ("theme", "string"), ("sessionMinutes", "integer")].enumerated() {
                pairs += [("keyName", key.0), ("keyType", key.1), ("keyRequired", "no"), ("keyMinimum", index == 2 ? "5" : ""),
                          ("keyMaximum", index == 2 ? "480" : ""), ("keyAllowed", index == 1 ? "light, dark" : ""), ("keyPattern", ""),
                          ("keyDescription", "")]
            }
            pairs += [("keyValue.0", "false"), ("keyValue.1", "dark"), ("keyValue.2", "600")]
            let refused = try await admin.post(path, pairs: pairs)
            #expect(refused.status == .unprocessableContent)
            #expect(refused.body.contains(#"<p class="field-error" id="key-2-value-error">sessionMinutes: The value must be at most 480.</p>"#))
            #expect(refused.body.contains(#"id="key-0-value" name="keyValue.0" type="checkbox" value="true" aria-describedby"#), "the box stays unticked")
            #expect(refused.body.contains(#"<option value="dark" selected>dark</option>"#))
            pairs[pairs.count - 1] = ("keyValue.2", "45")
            #expect(try await admin.post(path, pairs: pairs).status == .seeOther)
        }
        let latest = try console.services.database.readBlocking { try $0.fetchOne(ProfileVersionRecord.query().order(by: "number", .descending)) }
        guard let config = latest?.content.settings(ManagedAppConfiguration.self) else {
            Issue.record("the configuration was not saved")
            return
        }
        #expect(config.dictionary == .dictionary([("allowPrinting", .boolean(false)), ("theme", .string("dark")), ("sessionMinutes", .integer(45))]))
    }
}
