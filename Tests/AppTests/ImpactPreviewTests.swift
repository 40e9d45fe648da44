@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// Before an assignment, unassignment or save takes effect, the admin sees what it will do to
/// the devices it reaches — on the page that confirms it, and as the API's dry run — and the
/// preview itself changes nothing.
@Suite struct ImpactPreviewTests {
    typealias API = APITests

    /// The demo console with an extra profile holding Single App Mode for `app`, unassigned.
    func lockProfile(_ console: TestConsole, app: String, name: String) async throws -> RecordID<ProfileRecord> {
        let store = console.services.profileStore
        let profile = try await store.create(identifier: "com.example.test.\(name.lowercased().replacingOccurrences(of: " ", with: "-"))",
                                             content: ProfileContent(name: name), by: .system)
        try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: name, payloads: [
            Payload(SingleAppMode(appIdentifier: app)), Payload(Logging(level: .debug)),
        ]), note: "", by: .system)
        return profile.id
    }

    func group(_ console: TestConsole, _ name: String) async throws -> RecordID<DeviceGroupRecord> {
        try #require(try await console.services.database.read { try $0.fetchOne(DeviceGroupRecord.query().filter("name", .equal, name)) }?.id)
    }

    func assignments(_ console: TestConsole, _ profile: RecordID<ProfileRecord>) async throws -> Int {
        try await console.services.database.read { try $0.count(ProfileAssignmentRecord.query().filter("profileID", .equal, profile)) }
    }

    @Test func assigningShowsWhoLocksIntoWhichAppAndChangesNothingUntilConfirmed() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let exam = try await lockProfile(console, app: "com.example.exam", name: "Exam day lock")
        let schools = try await group(console, "Schools")
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            let profilePage = try await admin.get(Site.Profiles.show.link(exam))
            #expect(profilePage.body.contains("action=\"/profiles/\(exam)/assignments/preview\""), "the assign form goes to the preview")
            let preview = try await admin.get("/profiles/\(exam)/assignments/preview?groupID=\(schools)")
            #expect(preview.status == .ok)
            // Schools holds Exam iPads: 16 supervised school iPads and a student's own, unsupervised one.
            #expect(preview.body.contains("Reaches 17 devices in 2 groups; 17 devices change."))
            #expect(preview.body.contains("<strong>16 devices lock into Exam Browser (Single App Mode)</strong>: Exam iPad 01, Exam iPad 02"))
            #expect(!preview.body.contains("Student iPad (own),"), "Single App Mode cannot hold an unsupervised iPad")
            #expect(preview.body.contains("Logging <span class=\"tag diff-added\">added</span>") && preview.body.contains("Debug and more severe"),
                    "the settings that change, in the form's words")
            #expect(try await assignments(console, exam) == 0, "a preview changes nothing")

            let confirmed = try await admin.post("/profiles/\(exam)/assignments", ["groupID": schools.description])
            #expect(confirmed.status == .seeOther)
            #expect(try await assignments(console, exam) == 1)

            // A second lock for the same iPads is a conflict, and the preview says what that means.
            let quiz = try await lockProfile(console, app: "com.example.quiz", name: "Quiz lock")
            let exams = try await group(console, "Exam iPads")
            let clash = try await admin.get("/profiles/\(quiz)/assignments/preview?groupID=\(exams)")
            #expect(clash.body.contains("New conflict in Exam iPads: Exam Browser and Quiz Time both ask for Single App Mode. Its 17 devices keep their current policy"))
            #expect(!clash.body.contains("lock into Quiz Time"), "in a conflict no device takes the new lock")
            #expect(clash.body.contains("none of them changes: a Single App Mode conflict keeps them on their current policy."),
                    "the headline does not count frozen devices as changing")
            #expect(clash.body.contains(#"class="button danger" id="confirm-change""#) && clash.body.contains("anyway (its devices stop taking updates)"))

            // A second lock to the same app merges, and the preview says so.
            let sameApp = try await lockProfile(console, app: "com.example.exam", name: "Exam lock too")
            let merged = try await admin.get("/profiles/\(sameApp)/assignments/preview?groupID=\(exams)")
            #expect(merged.body.contains("lock to Exam Browser alike: one lock, no conflict"), "two profiles, one app: said, not silent")
            #expect(merged.body.contains(#"class="button primary" id="confirm-change""#))

            // A group that is not there is refused beside the form, not a crash.
            let missing = try await admin.get("/profiles/\(quiz)/assignments/preview?groupID=999999")
            #expect(missing.status == .unprocessableContent && missing.body.contains("id=\"assign-group-error\""))

            // The form asks for a group rather than offering the first one; sent without one, it says so.
            let page = try await admin.get(Site.Profiles.show.link(quiz))
            #expect(page.body.contains(#"<select id="assign-group" name="groupID">"#) && page.body.contains(#"<option value="">Choose a group…</option>"#))
            let unchosen = try await admin.get("/profiles/\(quiz)/assignments/preview?groupID=")
            #expect(unchosen.status == .unprocessableContent && unchosen.body.contains("Choose a group to assign the profile to."))
        }
    }

    @Test func unassigningShowsWhoUnlocksAndTheSettingsThatGo() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let lobby = try #require(try await console.services.database.read {
            try $0.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk"))
        })
        let kiosks = try await group(console, "Lobby kiosks")
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            let profilePage = try await admin.get(Site.Profiles.show.link(lobby.id))
            #expect(profilePage.body.contains("href=\"/profiles/\(lobby.id)/assignments/\(kiosks)/remove\""))
            let preview = try await admin.get(Site.Profiles.unassign.link(lobby.id, kiosks))
            #expect(preview.body.contains("<strong>6 devices unlock, leaving Lobby Check-In</strong>: Lobby kiosk 01"))
            #expect(preview.body.contains("Single App Mode <span class=\"tag diff-removed\">removed</span>"))
            #expect(preview.body.contains("<th scope=\"row\">The whole payload</th>"), "a payload that goes is one row, not one per option")
            #expect(!preview.body.contains("Disable auto-lock"))
            #expect(preview.body.contains("action=\"\(Site.Profiles.unassign.link(lobby.id, kiosks))\""))
            #expect(try await assignments(console, lobby.id) == 1)
            try await admin.post(Site.Profiles.unassign.link(lobby.id, kiosks))
            #expect(try await assignments(console, lobby.id) == 0)
        }
    }

    @Test func aSaveThatReachesDevicesShowsItsImpactFirstAndSavesOnConfirmation() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let lobby = try #require(try await console.services.database.read {
            try $0.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk"))
        })
        let form: [(String, String)] = [("baseVersion", "\(lobby.version)"), ("app", "com.example.checkin"), ("option.DisableTouch", "on"), ("option.DisableAutoLock", "on"), ("option.DisableRingerSwitch", "on"),
                                        ("user.Zoom", "on"), ("user.VoiceOver", "on"), ("intent", "save")]
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            try await admin.get(Site.Profiles.payloadForm.link(lobby.id, .singleAppMode))
            let preview = try await admin.post(Site.Profiles.payloadForm.link(lobby.id, .singleAppMode), pairs: form)
            #expect(preview.status == .ok)
            #expect(preview.body.contains("Save “Edited Single App Mode” in Lobby kiosk lockdown?"))
            #expect(preview.body.contains("Reaches 6 devices in 1 group; 6 devices change."))
            #expect(preview.body.contains("<th scope=\"row\">Disable touch</th>"), "the setting that changes, under its form label")
            #expect(!preview.body.contains("Disable auto-lock</th>"), "and only that one")
            #expect(preview.body.contains("name=\"impactConfirmed\" value=\"yes\""))
            #expect(try await console.services.database.read { try $0.require(ProfileRecord.self, id: lobby.id) }.version == lobby.version,
                    "nothing is saved before the confirmation")
            let confirmed = try await admin.post(Site.Profiles.payloadForm.link(lobby.id, .singleAppMode), pairs: form + [("impactConfirmed", "yes")])
            #expect(confirmed.status == .seeOther)
            #expect(try await console.services.database.read { try $0.require(ProfileRecord.self, id: lobby.id) }.version == lobby.version + 1)

            // Restoring an old version is a save too: version 2 had no options and no user toggles.
            try await admin.get(Site.Profiles.version.link(lobby.id, 2))
            let restore = try await admin.post(Site.Profiles.restore.link(lobby.id, 2), ["baseVersion": "\(lobby.version + 1)"])
            #expect(restore.status == .ok && restore.body.contains("Save “Restored version 2” in Lobby kiosk lockdown?"))
            #expect(restore.body.contains("<th scope=\"row\">Disable touch</th>"))
            let restored = try await admin.post(Site.Profiles.restore.link(lobby.id, 2), ["baseVersion": "\(lobby.version + 1)", "impactConfirmed": "yes"])
            #expect(restored.status == .seeOther)
            #expect(try await console.services.database.read { try $0.require(ProfileRecord.self, id: lobby.id) }.version == lobby.version + 2)
        }
    }

    @Test func theAPIsDryRunsAnswerTheImpactAndChangeNothing() async throws {
        let console = try await TestConsole.make(demo: true)
        let token = try await API().token(console, role: .admin)
        let exam = try await lockProfile(console, app: "com.example.exam", name: "Exam day lock")
        let exams = try await group(console, "Exam iPads")
        try await console.test { client in
            let api = API()
            let dry = try await api.call(client, .post, "/api/v1/profiles/\(exam)/assignments?dryRun=true", token: token, body: "{\"groupID\": \(exams)}")
            #expect(dry.status == .ok && dry.json["dryRun"] as? Bool == true)
            let impact = try #require(dry.json["impact"] as? [String: Any])
            #expect(impact["devicesReached"] as? Int == 17)
            #expect((impact["locking"] as? [[String: Any]])?.count == 16)
            #expect((impact["locking"] as? [[String: Any]])?.first?["to"] as? String == "com.example.exam")
            #expect(try await assignments(console, exam) == 0)

            let bad = try await api.call(client, .post, "/api/v1/profiles/\(exam)/assignments?dryRun=perhaps", token: token, body: "{\"groupID\": \(exams)}")
            #expect(bad.status == .badRequest && api.errorCode(bad.json) == "invalid_query")
            let noGroup = try await api.call(client, .post, "/api/v1/profiles/\(exam)/assignments?dryRun=true", token: token, body: "{\"groupID\": 999999}")
            #expect(noGroup.status == .unprocessableContent)

            _ = try await api.call(client, .post, "/api/v1/profiles/\(exam)/assignments", token: token, body: "{\"groupID\": \(exams)}")
            // A save's dry run: the new logging level reaches the same devices; no version is made.
            let save = try await api.call(client, .put, "/api/v1/profiles/\(exam)?dryRun=true", token: token, body: """
                {"name": "Exam day lock", "payloads": [{"PayloadType": "com.apple.app.lock", "App": {"Identifier": "com.example.exam"}},
                 {"PayloadType": "com.payloadconsole.sdk.logging", "enabled": true, "level": "error", "wifiOnly": false}]}
                """, headers: [.ifMatch: "\"2\""])
            #expect(save.status == .ok)
            let changes = ((save.json["impact"] as? [String: Any])?["groups"] as? [[String: Any]])?.first?["changes"] as? [[String: Any]]
            #expect(changes?.contains { $0["field"] as? String == "Logging › level" && $0["after"] as? String == "error" } == true)
            let stale = try await api.call(client, .put, "/api/v1/profiles/\(exam)?dryRun=true", token: token,
                                           body: "{\"name\": \"Exam day lock\"}", headers: [.ifMatch: "\"1\""])
            #expect(stale.status == .preconditionFailed, "a dry run of a stale edit says what the save would")
            #expect(try await console.services.database.read { try $0.require(ProfileRecord.self, id: exam) }.version == 2)

            let missing = try await api.call(client, .delete, "/api/v1/profiles/\(exam)/assignments/999999?dryRun=true", token: token)
            #expect(missing.status == .notFound, "a dry run answers a missing group as the unassignment does")
            let unassign = try await api.call(client, .delete, "/api/v1/profiles/\(exam)/assignments/\(exams)?dryRun=true", token: token)
            #expect((unassign.json["impact"] as? [String: Any])?["unlocking"] as? [Any] != nil)
            #expect(((unassign.json["impact"] as? [String: Any])?["unlocking"] as? [Any])?.count == 16)
            #expect(try await assignments(console, exam) == 1)
        }
    }
}
