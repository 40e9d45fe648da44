@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// What the review of sessions 7 and 8 found, each held by a test that failed before its mend.
@Suite struct ReviewMendTests {
    typealias API = APITests

    @Test func aGroupedFeedLineNamesEachSubjectOnceAndColonsOnce() {
        let actor = "ann@example.com"
        func event(_ id: Int64, _ action: String, _ subject: String) -> AuditEvent {
            AuditEvent(id: RecordID(id), occurredAt: Date(timeIntervalSince1970: 1_800_000_000 - Double(id)), actorID: nil, actorEmail: actor,
                       action: action, subject: subject, before: nil, after: nil)
        }
        let saves = (1...5).map { event($0, "profile.edited", "Lobby lock (com.example.lobby)") }
        let line = try! #require(ActivityFeed.entries(saves, now: Date(timeIntervalSince1970: 1_800_000_000), limit: 10).first)
        #expect(line.action == "saved 5 new versions of:" && line.subject == "Lobby lock (com.example.lobby)")
        let settings = (6...7).map { event($0, "settings.updated", "console settings") }
        let twice = try! #require(ActivityFeed.entries(settings, now: Date(timeIntervalSince1970: 1_800_000_000), limit: 10).first)
        #expect(twice.action == "changed the console settings: (2 times)", "no second colon")
    }

    @Test func helpdeskIsNotSentToTheAdminsSettingsFromTheHealthStrip() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("desk@example.com", role: .helpdesk)
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("desk@example.com", password: TestConsole.password)
            let storage = try #require(DashboardTests.health(try await desk.get("/dashboard").body).first { $0.text == "Log storage has room" })
            #expect(storage.href == Site.Logs.index.link())
            #expect(try await desk.get(storage.href).status == .ok)
        }
    }

    @Test func previewsOfNothingToDoSaySoAndAMisspeltDryRunChangesNothing() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("lead@example.com", role: .admin)
        let token = try await API().token(console, role: .admin)
        let (lobby, kiosks, clinics) = try await console.services.database.read { connection in
            (try connection.fetchOne(ProfileRecord.query().filter("identifier", .equal, "com.example.profiles.lobby-kiosk"))!,
             try connection.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Lobby kiosks"))!.id,
             try connection.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Clinic iPads"))!.id)
        }
        @Sendable func assignments() async throws -> Int {
            try await console.services.database.read { try $0.count(ProfileAssignmentRecord.query().filter("profileID", .equal, lobby.id)) }
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("lead@example.com", password: TestConsole.password)
            let already = try await admin.get("/profiles/\(lobby.id)/assignments/preview?groupID=\(kiosks)")
            #expect(already.status == .seeOther && already.location == Site.Profiles.show.link(lobby.id))
            #expect(try await admin.get(Site.Profiles.show.link(lobby.id)).body.contains("is already assigned to Lobby kiosks."))
            let nothing = try await admin.get(Site.Profiles.unassign.link(lobby.id, clinics))
            #expect(nothing.status == .seeOther)
            #expect(try await admin.get(Site.Profiles.show.link(lobby.id)).body.contains("is not assigned to Clinic iPads: there is nothing to unassign."))
            try await admin.post(Site.Profiles.unassign.link(lobby.id, clinics))
            #expect(try await admin.get(Site.Profiles.show.link(lobby.id)).body.contains("was not assigned to Clinic iPads; nothing changed."))

            // An empty group: the preview says the change reaches nothing.
            try await admin.get("/groups")
            try await admin.post("/groups", ["name": "Empty", "parentID": ""])
            let empty = try #require(try await console.services.database.read { try $0.fetchOne(DeviceGroupRecord.query().filter("name", .equal, "Empty")) })
            #expect(try await admin.get("/profiles/\(lobby.id)/assignments/preview?groupID=\(empty.id)").body
                .contains("This change reaches no device: the groups it touches hold none."))

            let api = API()
            let typo = try await api.call(client, .post, "/api/v1/profiles/\(lobby.id)/assignments?dryrun=true", token: token, body: "{\"groupID\": \(clinics)}")
            #expect(typo.status == .badRequest && api.errorCode(typo.json) == "unknown_query_parameter")
            #expect(try await assignments() == 1, "a misspelt dry run changes nothing")
            let fraction = try await api.call(client, .post, "/api/v1/profiles/\(lobby.id)/assignments", token: token, body: "{\"groupID\": 3.5}")
            #expect(fraction.status == .unprocessableContent)
            #expect(((fraction.json["error"] as? [String: Any])?["message"] as? String)?.hasPrefix("A number does not fit its field") == true)
        }
    }

    @Test func aMalformedLocationPresetIsRefusedNotReadAsLocationServicesOff() async throws {
        let console = try await TestConsole.make(demo: true)
        try await console.addUser("desk@example.com", role: .helpdesk)
        let phone = try #require(try await console.services.database.read { try $0.fetchOne(DeviceRecord.query().filter("name", .equal, "Sales iPhone 01")) })
        try await console.test { client in
            let desk = Browser(client)
            try await desk.signIn("desk@example.com", password: TestConsole.password)
            try await desk.get(Site.Simulator.show.link(phone.id))
            let refused = try await desk.post(Site.Simulator.act.link(phone.id), ["action": "setLocation", "preset": "a,b,c"])
            #expect(refused.status == .unprocessableContent)
            let events = try await console.services.database.read {
                try $0.count(SimulatorEventRecord.query().filter("deviceID", .equal, phone.id).filter("action", .equal, "Turn location services off"))
            }
            #expect(events == 0)
        }
    }

    @Test func theAuditLogShowsAPersonWithoutEntriesAsTheChosenFilter() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let page = try await admin.get("/audit?person=nobody%40example.com")
            #expect(page.body.contains("<option value=\"nobody@example.com\" selected>nobody@example.com</option>"))
            #expect(!page.body.contains("<option value=\"\" selected>Everyone</option>"))
        }
    }

    @Test func aCopyOfALongIdentifierStaysAValidIdentifier() async throws {
        let console = try await TestConsole.make()
        let long = "com.example." + String(repeating: "a", count: 140)
        let source = try await console.services.profileStore.create(identifier: long, content: ProfileContent(name: "Long"), by: .system)
        let copy = try await console.services.profileStore.clone(source.id, by: .system)
        #expect(copy.identifier.count <= BundleID.maximumLength && copy.identifier.hasSuffix(".copy"))
        #expect(BundleID.problem(copy.identifier) == nil)
    }

    @Test func anOrganisationNameFollowsTheTextRuleOfEveryStoredName() {
        var form = SettingsForm(FormFields(pairs: [("organisationName", "Example\u{FFFE}Group"), ("logCapMegabytes", "200"), ("logRetentionDays", "14")]))
        #expect(form.validated() == nil && form.errors["organisationName"] != nil, "U+FFFE cannot be written in a profile's XML")
    }

    @Test func theAPIDocumentSaysWhoMayQueueEachCommandAsTheRouteEnforces() {
        let helpdesk = DeviceCommand.RequestType.queueable.filter { $0.role == .helpdesk }.map(\.rawValue)
        #expect(helpdesk.contains("RestartDevice") && OpenAPIDocument.commandRoles.hasPrefix(helpdesk.joined(separator: ", ")))
        #expect(!OpenAPIDocument.adminCommands.contains("RestartDevice"))
    }
}
