@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Signing
import Storage
import Testing

@Suite struct ProfileTests {
    /// Signs in an admin and creates a profile; returns the browser and the profile id.
    func adminWithProfile(_ console: TestConsole, _ client: any TestClientProtocol, name: String = "Lobby kiosk") async throws -> (Browser, String) {
        let admin = Browser(client)
        try await admin.signIn("ann@example.com", password: TestConsole.password)
        try await admin.get("/profiles")
        let created = try await admin.post("/profiles", ["name": name, "identifier": "", "description": "Locks the **lobby** iPads."])
        let location = try #require(created.location)
        return (admin, String(location.dropFirst("/profiles/".count)))
    }

    @Test func creatingAProfileSuggestsAnIdentifierAndRendersTheDescription() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            let page = try await admin.get("/profiles/\(id)")
            #expect(page.body.contains("com.example.profiles.lobby-kiosk"))
            #expect(page.body.contains("<strong>lobby</strong>"))
            #expect(page.body.contains("version 1"))
        }
    }

    @Test func theListEscapesNamesAndShowsKindsAndAssignedGroups() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client, name: #"<b>Lobby</b> & "Co""#)
            try await admin.get("/profiles/\(id)/payloads/dlp")
            try await admin.post("/profiles/\(id)/payloads/dlp", ["baseVersion": "1", "intent": "save"])
            let list = try await admin.get("/profiles")
            #expect(list.body.contains("&lt;b&gt;Lobby&lt;/b&gt; &amp; &quot;Co&quot;</a>"))
            #expect(!list.body.contains("<b>Lobby</b>"))
            #expect(list.body.contains(#"<span class="tag">Data loss prevention</span>"#))
            #expect(list.body.contains("<td>2</td><td>0</td>"))
        }
    }

    @Test func anInvalidPayloadFormComesBackWithValuesAndNothingIsSaved() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            try await admin.get("/profiles/\(id)/payloads/single-app-mode")
            let bad = try await admin.post("/profiles/\(id)/payloads/single-app-mode",
                                           ["baseVersion": "1", "app": "not a bundle", "option.DisableTouch": "on", "intent": "save"])
            #expect(bad.status == .unprocessableContent)
            #expect(bad.body.contains(#"id="sam-app-error""#))
            #expect(bad.body.contains(#"value="not a bundle""#))
            #expect(bad.body.contains(#"name="option.DisableTouch" value="on" checked"#))

            try await admin.get("/profiles/\(id)/payloads/geofence")
            let fence = try await admin.post("/profiles/\(id)/payloads/geofence", [
                "baseVersion": "1", "name": "HQ", "latitude": "91", "longitude": "abc", "radius": "10", "intent": "save",
            ])
            #expect(fence.status == .unprocessableContent)
            #expect(fence.body.contains(#"id="area-0-longitude-error""#))
            // One pass over every field: the unreadable longitude hides neither the latitude
            // out of range nor the radius below 50 m.
            #expect(fence.body.contains(#"id="area-0-latitude-error""#))
            #expect(fence.body.contains(#"id="area-0-radius-error""#))
            #expect(fence.body.contains(#"value="91""#))

            try await admin.get("/profiles/\(id)/payloads/authentication")
            let auth = try await admin.post("/profiles/\(id)/payloads/authentication", [
                "baseVersion": "1", "type": "", "offlineAccessEnabled": "on", "maximumOffline": "99999", "intent": "save",
            ])
            #expect(auth.status == .unprocessableContent)
            #expect(auth.body.contains(#"id="auth-type-error""#))
            #expect(auth.body.contains("Allow from 1 minute to 43,200 minutes"), "the allowance is checked while the type is missing")
        }
        let versions = try console.services.database.readBlocking { try $0.count(ProfileVersionRecord.query()) }
        #expect(versions == 1)
    }

    @Test func savingAPayloadMakesANewVersionAndTheHistoryShowsTheDifference() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            try await admin.get("/profiles/\(id)/payloads/single-app-mode")
            let saved = try await admin.post("/profiles/\(id)/payloads/single-app-mode",
                                             ["baseVersion": "1", "app": "com.example.kiosk", "option.DisableTouch": "on", "intent": "save"])
            #expect(saved.status == .seeOther)
            let page = try await admin.get("/profiles/\(id)")
            #expect(page.body.contains("Locks to com.example.kiosk"))
            #expect(page.body.contains("version 2"))

            let history = try await admin.get("/profiles/\(id)/history?from=1&to=2")
            #expect(history.body.contains("Added Single App Mode"))
            #expect(history.body.contains("ann@example.com"))
            #expect(history.body.contains("com.example.kiosk"))

            // Restoring version 1 makes version 3 without the payload.
            let old = try await admin.get("/profiles/\(id)/versions/1")
            #expect(old.body.contains("saves its content as version 3;"), "the number it will get, not a sum to work out")
            let restored = try await admin.post("/profiles/\(id)/versions/1/restore", ["baseVersion": "2"])
            #expect(restored.status == .seeOther)
            #expect(!(try await admin.get("/profiles/\(id)").body.contains("Locks to com.example.kiosk")))
        }
        let numbers = try console.services.database.readBlocking { try $0.fetch(ProfileVersionRecord.query().order(by: "number")).map(\.number) }
        #expect(numbers == [1, 2, 3])
        let actions = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query()).map(\.action) }
        #expect(actions.contains("profile.edited"))
        #expect(actions.contains("profile.restored"))
    }

    @Test func theSecondOfTwoAdminsEditingOneVersionGetsAConflictNotALostUpdate() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("bob@example.com", role: .admin)
        try await console.test { client in
            let (ann, id) = try await adminWithProfile(console, client)
            let bob = Browser(client)
            try await bob.signIn("bob@example.com", password: TestConsole.password)
            try await ann.get("/profiles/\(id)/payloads/logging")
            try await bob.get("/profiles/\(id)/payloads/logging")
            let first = try await ann.post("/profiles/\(id)/payloads/logging", ["baseVersion": "1", "enabled": "on", "level": "warning", "intent": "save"])
            #expect(first.status == .seeOther)
            let second = try await bob.post("/profiles/\(id)/payloads/logging", ["baseVersion": "1", "enabled": "on", "level": "debug", "intent": "save"])
            #expect(second.status == .conflict)
            #expect(second.body.contains("ann@example.com has since saved version 2"))
            #expect(second.body.contains(#"id="their-change""#))
            #expect(second.body.contains("<td class=\"after\">warning</td>"))
            #expect(second.body.contains("<td class=\"after\">debug</td>"))
        }
        let latest = try console.services.database.readBlocking {
            try $0.fetchOne(ProfileVersionRecord.query().order(by: "number", .descending))
        }
        #expect(latest?.number == 2)
        guard let logging = latest?.content.settings(Logging.self) else {
            Issue.record("the logging payload is missing")
            return
        }
        #expect(logging.level == .warning)
    }

    @Test func theExportNamesTheOrganisationAndDescribesInPlainText() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            try await admin.get("/profiles/\(id)")
            let saved = try await admin.post("/profiles/\(id)/details", ["baseVersion": "1", "name": "Lobby kiosk lockdown",
                                                                         "description": "Keeps the **lobby iPads** in *one* app.\n\n- Zoom on"])
            #expect(saved.status == .seeOther)
            try await admin.get("/settings")
            let tooLong = String(repeating: "Example ", count: 13)
            let refused = try await admin.post("/settings", ["organisationName": tooLong, "logCapMegabytes": "200", "logRetentionDays": "14"])
            #expect(refused.status == .unprocessableContent && refused.body.contains("id=\"organisation-name-error\""))
            #expect(refused.body.contains("value=\"\(tooLong.trimmingCharacters(in: .whitespaces))\""), "the value typed stays in the field")
            try await admin.post("/settings", ["organisationName": "Example Health Trust", "logCapMegabytes": "200", "logRetentionDays": "14"])
            let download = try await admin.get("/profiles/\(id)/versions/2/mobileconfig")
            let plist = try #require(try PropertyListSerialization.propertyList(from: Data(download.body.utf8), format: nil) as? [String: Any])
            #expect(plist["PayloadOrganization"] as? String == "Example Health Trust")
            #expect(plist["PayloadDescription"] as? String == "Keeps the lobby iPads in one app.\n• Zoom on")
        }
    }

    @Test func theExportIsAnApplePropertyListWithOptionsInsideApp() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            try await admin.get("/profiles/\(id)/payloads/single-app-mode")
            try await admin.post("/profiles/\(id)/payloads/single-app-mode",
                                 ["baseVersion": "1", "app": "com.example.kiosk", "option.DisableAutoLock": "on", "user.VoiceOver": "on"])
            try await admin.get("/profiles/\(id)/payloads/asam-allowlist")
            try await admin.post("/profiles/\(id)/payloads/asam-allowlist",
                                 ["baseVersion": "2", "apps": "com.example.exam", "intent": "save"])
            let download = try await admin.get("/profiles/\(id)/versions/3/mobileconfig")
            #expect(download.status == .ok)
            #expect(download.headers[.contentType] == "application/x-apple-aspen-config")
            let plist = try #require(try PropertyListSerialization.propertyList(from: Data(download.body.utf8), format: nil) as? [String: Any])
            #expect(plist["PayloadType"] as? String == "Configuration")
            #expect(plist["PayloadIdentifier"] as? String == "com.example.profiles.lobby-kiosk")
            let content = try #require(plist["PayloadContent"] as? [[String: Any]])
            let lock = try #require(content.first { $0["PayloadType"] as? String == "com.apple.app.lock" })
            let app = try #require(lock["App"] as? [String: Any])
            #expect(app["Identifier"] as? String == "com.example.kiosk")
            #expect((app["Options"] as? [String: Any])?["DisableAutoLock"] as? Bool == true)
            #expect((app["UserEnabledOptions"] as? [String: Any])?["VoiceOver"] as? Bool == true)
            #expect(lock["Options"] == nil)
            let restrictions = try #require(content.first { $0["PayloadType"] as? String == "com.apple.applicationaccess" })
            #expect(restrictions["autonomousSingleAppModePermittedAppIDs"] as? [String] == ["com.example.exam"])

            // No organisation set: the optional key is left out rather than naming the product.
            #expect(plist["PayloadOrganization"] == nil)
            // Payload UUIDs stay the same between versions; the profile UUID does not.
            let older = try await admin.get("/profiles/\(id)/versions/2/mobileconfig")
            let olderPlist = try #require(try PropertyListSerialization.propertyList(from: Data(older.body.utf8), format: nil) as? [String: Any])
            let olderLock = try #require((olderPlist["PayloadContent"] as? [[String: Any]])?.first)
            #expect(olderLock["PayloadUUID"] as? String == lock["PayloadUUID"] as? String)
            #expect(olderPlist["PayloadUUID"] as? String != plist["PayloadUUID"] as? String)

            let signed = try await admin.send("/profiles/\(id)/versions/3/mobileconfig?signed=true", method: .get)
            #expect(signed.status == .ok)
            let signedBytes = try await client.execute(uri: "/profiles/\(id)/versions/3/mobileconfig?signed=true", method: .get,
                                                       headers: [.cookie: admin.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")])
            let content2 = try ProfileSigner.verifiedContent(of: Array(signedBytes.body.readableBytesView))
            #expect(String(decoding: content2, as: UTF8.self) == download.body)
        }
    }

    @Test func assigningAProfileToAGroupIsRecordedAndAudited() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let group = try console.services.database.writeBlocking {
            try $0.insert(DeviceGroupRecord(name: "Lobby kiosks", parentID: nil, createdAt: Date()))
        }
        try await console.test { client in
            let (admin, id) = try await adminWithProfile(console, client)
            try await admin.get("/profiles/\(id)")
            let assigned = try await admin.post("/profiles/\(id)/assignments", ["groupID": group.id.description])
            #expect(assigned.status == .seeOther)
            let page = try await admin.get("/profiles/\(id)")
            #expect(page.body.contains("now reaches Lobby kiosks"))
            #expect(page.body.contains(#"/assignments/\#(group.id)/remove"#))
            let audit = try await admin.get("/audit")
            #expect(audit.body.contains("assigned to Lobby kiosks"))
        }
    }
}

@Suite struct EffectivePolicyPageTests {
    @Test func theDevicePageExplainsEachSettingAndShowsASingleAppModeConflict() async throws {
        let console = try await TestConsole.make()
        let admin = try await console.addUser("ann@example.com", role: .admin)
        let store = ProfileStore(database: console.services.database, now: { Date() })
        let actor = Actor(admin)
        let (device, kioskProfile) = try console.services.database.writeBlocking { connection in
            let parent = try connection.insert(DeviceGroupRecord(name: "Kiosks", parentID: nil, createdAt: Date()))
            let child = try connection.insert(DeviceGroupRecord(name: "Lobby kiosks", parentID: parent.id, createdAt: Date()))
            let device = try connection.insert(DeviceRecord(
                name: "Lobby 1", model: .iPad, osVersion: "18.1", serialNumber: "F9FXK1Q2W3", udid: String(repeating: "A", count: 40),
                isSupervised: true, owner: "", groupID: child.id, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil))
            return (device, (parent.id, child.id))
        }
        let lobby = try await store.create(identifier: "com.example.lobby", content: ProfileContent(name: "Lobby lock")
            .setting(Payload(SingleAppMode(appIdentifier: "com.example.checkin")))
            .setting(Payload(Logging(level: .debug))), by: actor)
        let all = try await store.create(identifier: "com.example.all", content: ProfileContent(name: "All kiosks")
            .setting(Payload(Logging(level: .error)))
            .setting(Payload(DataLossPrevention(allowCopyPasteOut: false))), by: actor)
        try console.services.database.writeBlocking { connection in
            _ = try connection.insert(ProfileAssignmentRecord(profileID: lobby.id, groupID: kioskProfile.1, assignedAt: Date(), assignedBy: "test"))
            _ = try connection.insert(ProfileAssignmentRecord(profileID: all.id, groupID: kioskProfile.0, assignedAt: Date(), assignedBy: "test"))
        }
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            let page = try await browser.get("/devices/\(device.id)")
            #expect(page.body.contains("Locks to com.example.checkin"))
            #expect(page.body.contains("Lobby lock v1 via Lobby kiosks"))
            #expect(page.body.contains("Enabled at Debug and more severe"))
            #expect(page.body.contains("Copy and paste out: No"))
            #expect(page.body.contains("All kiosks v1 via Kiosks"))
            #expect(!page.body.contains(#"id="policy-conflict""#))

            // A second Single App Mode app through the parent group is a conflict.
            try await store.saveVersion(of: all.id, basedOn: 1, content: ProfileContent(name: "All kiosks")
                .setting(Payload(SingleAppMode(appIdentifier: "com.example.other"))), note: "test", by: actor)
            let conflicted = try await browser.get("/devices/\(device.id)")
            #expect(conflicted.body.contains(#"id="policy-conflict""#))
            #expect(conflicted.body.contains("com.example.other"))
            let profilePage = try await browser.get("/profiles/\(lobby.id)")
            #expect(profilePage.body.contains("Conflict in Lobby kiosks"))
        }
    }
}

/// The history reads in the payloads' own words: sections per payload, the forms' labels,
/// values as the forms show them, colours as swatches, unchanged payloads on one line.
@Suite struct VersionDiffTests {
    @Test func aChangedLockShowsOnlyItsChangedOptionsUnderTheirLabels() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("vic@example.com", role: .viewer)
        let profiles = try await console.services.database.read { try $0.fetch(ProfileRecord.query()) }
        let lobby = try #require(profiles.first { $0.identifier == "com.example.profiles.lobby-kiosk" })
        let sales = try #require(profiles.first { $0.identifier == "com.example.profiles.field-sales" })
        try await console.test { client in
            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            let lock = try await viewer.get(Site.Profiles.history.link(lobby.id) + "?from=3&to=4").body
            #expect(lock.contains("Single App Mode <span class=\"tag diff-changed\">changed</span>"))
            #expect(lock.contains("<th scope=\"row\">Disable auto-lock</th>"))
            #expect(lock.contains("<th scope=\"row\">Disable ringer switch</th>"))
            #expect(!lock.contains("Disable touch"), "options that did not change are not listed")
            #expect(!lock.contains("disableAutoLock"), "no stored key names")
            #expect(lock.contains("id=\"diff-unchanged\">Unchanged: Logging."))

            let brand = try await viewer.get(Site.Profiles.history.link(sales.id) + "?from=2&to=3").body
            #expect(brand.contains("Branding <span class=\"tag diff-added\">added</span>"))
            #expect(brand.contains("<span class=\"swatch\" data-color=\"#ee8b30\" aria-hidden=\"true\"></span>"))
            #expect(brand.contains("<th scope=\"row\">Area “South depot”</th>"))
            #expect(brand.contains("Logging <span class=\"tag diff-added\">added</span>") && brand.contains("<th scope=\"row\">Level kept</th>"),
                    "logging arrives with its level in words")
            #expect(brand.contains("Warning and more severe"))
        }
    }
}

/// Copying a profile as a starting point for another group's.
@Suite struct ProfileCloneTests {
    @Test func aCopyHasTheLatestPayloadsItsOwnIdentifierAndNoGroups() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("vic@example.com", role: .viewer)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let source = try #require(try await console.services.database.read {
                try $0.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk"))
            })
            let page = try await admin.get(Site.Profiles.show.link(source.id))
            #expect(page.body.contains("action=\"/profiles/\(source.id)/clone\""))
            let copied = try await admin.post(Site.Profiles.clone.link(source.id))
            #expect(copied.status == .seeOther)
            let again = try await admin.post(Site.Profiles.clone.link(source.id))
            let (first, second, sourceVersion) = try await console.services.database.read { connection in
                (try connection.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk.copy")),
                 try connection.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk.copy-2")),
                 try ProfileReader.latestVersion(of: source.id, in: connection))
            }
            let copy = try #require(first)
            #expect(second != nil, "a second copy takes the next free identifier")
            #expect(copied.location == Site.Profiles.show.link(copy.id) && again.location != copied.location)
            #expect(copy.name == "Copy of Lobby kiosk lockdown" && copy.version == 1)
            let (version, assignments) = try await console.services.database.read { connection in
                (try ProfileReader.latestVersion(of: copy.id, in: connection),
                 try connection.count(ProfileAssignmentRecord.query().filter("profileID", .equal, copy.id)))
            }
            #expect(version.content.payloads == sourceVersion.content.payloads)
            #expect(assignments == 0, "a copy reaches no device until assigned")
            #expect(Set(copy.payloadUUIDs.values).isDisjoint(with: Set(source.payloadUUIDs.values)), "its payloads have UUIDs of their own")

            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            try await viewer.get(Site.Profiles.show.link(source.id))
            #expect(try await viewer.post(Site.Profiles.clone.link(source.id)).status == .forbidden)
        }
    }
}
