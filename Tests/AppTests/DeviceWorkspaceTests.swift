@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The device page as helpdesk's workspace: lock and why, the newest lines (and the ones that
/// arrive while it is open), feedback with its history, and notes — within each role's rights.
@Suite struct DeviceWorkspaceTests {
    typealias Seed = LogViewerTests
    let api = APITests()

    func signedIn(_ console: TestConsole, _ client: any TestClientProtocol, _ email: String, _ role: Role) async throws -> Browser {
        try await console.addUser(email, role: role)
        let browser = Browser(client)
        try await browser.signIn(email, password: TestConsole.password)
        return browser
    }

    @Test func helpdeskSeesTheWorkspaceAndViewersOnlyTheDevice() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [Seed.line("Printer offline near ward 3")])
        try await console.test { client in
            let helpdesk = try await signedIn(console, client, "hal@example.com", .helpdesk)
            let page = try await helpdesk.get("/devices/\(device)")
            #expect(page.body.contains("id=\"recent-log-rows\"") && page.body.contains("Printer offline near ward 3"))
            #expect(page.body.contains("id=\"note-form\"") && page.body.contains("id=\"fetch-feedback\"") && page.body.contains("id=\"request-logs\""))
            #expect(page.body.contains("<strong>Not reported</strong>"), "a hand-added device reports no lock")

            let viewer = try await signedIn(console, client, "vi@example.com", .viewer)
            let viewed = try await viewer.get("/devices/\(device)")
            #expect(viewed.status == .ok && !viewed.body.contains("Printer offline") && !viewed.body.contains("id=\"notes\"")
                    && !viewed.body.contains("id=\"feedback\""))
            #expect(try await viewer.get("/devices/\(device)/live").status == .forbidden)
            #expect(try await viewer.get("/devices/\(device)/feedback?app=com.example.clinicnotes").status == .forbidden)
        }
    }

    @Test func notesRenderMarkdownInertAndOnlyTheirAuthorOrAnAdminChangesThem() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [])
        try await console.test { client in
            let hal = try await signedIn(console, client, "hal@example.com", .helpdesk)
            _ = try await hal.get("/devices/\(device)")
            let empty = try await hal.post("/devices/\(device)/notes", ["body": "   "])
            #expect(empty.status == .unprocessableContent && empty.body.contains("id=\"note-error\">Write the note first."))
            let hostile = """
                **Replaced** the charger. <script>alert(1)</script> <img src=x onerror=alert(2)>
                [click](javascript:alert(3)) and [docs](https://example.com/help)
                """
            let added = try await hal.post("/devices/\(device)/notes", ["body": hostile])
            #expect(added.status == .seeOther)
            let page = try await hal.get("/devices/\(device)")
            #expect(page.body.contains("<strong>Replaced</strong>"))
            #expect(!page.body.contains("<script>alert(1)") && !page.body.contains("<img") && !page.body.contains("href=\"javascript:"))
            #expect(page.body.contains("href=\"https://example.com/help\""))
            let note = try #require(try await console.services.database.read { try $0.fetchOne(DeviceNoteRecord.query()) })

            let bea = try await signedIn(console, client, "bea@example.com", .helpdesk)
            let othersPage = try await bea.get("/devices/\(device)")
            #expect(!othersPage.body.contains("/notes/\(note.id)/edit"), "another helpdesk user is not offered Edit")
            #expect(try await bea.get("/devices/\(device)/notes/\(note.id)/edit").status == .forbidden)
            #expect(try await bea.post("/devices/\(device)/notes/\(note.id)", ["body": "Mine now"]).status == .forbidden)

            _ = try await hal.get("/devices/\(device)/notes/\(note.id)/edit")
            let tooLong = try await hal.post("/devices/\(device)/notes/\(note.id)", ["body": String(repeating: "a", count: 10_001)])
            #expect(tooLong.status == .unprocessableContent && tooLong.body.contains("Keep a note under 10,000 characters"))
            #expect(try await hal.post("/devices/\(device)/notes/\(note.id)", ["body": "Charger replaced on Monday."]).status == .seeOther)

            let ada = try await signedIn(console, client, "ada@example.com", .admin)
            _ = try await ada.get("/devices/\(device)")
            #expect(try await ada.post("/devices/\(device)/notes/\(note.id)/delete").status == .seeOther)
            let actions = try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .like, "note.%").order(by: "id")) }
            #expect(actions.map(\.action) == ["note.added", "note.edited", "note.deleted"])
            #expect(actions[1].before?.hasPrefix("**Replaced**") == true && actions[1].after == "Charger replaced on Monday.")
            #expect(actions[2].actorEmail == "ada@example.com")
        }
    }

    @Test func linesThatArriveAfterThePageLoadedComeBackNewestFirstWithCommandStates() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [Seed.line("Before the page", minutes: 0)])
        try await console.test { client in
            let hal = try await signedIn(console, client, "hal@example.com", .helpdesk)
            let page = try await hal.get("/devices/\(device)")
            let newest = try #require(page.body.components(separatedBy: "data-newest=\"").dropFirst().first?.prefix { $0 != "\"" })
            _ = try await hal.post("/devices/\(device)/commands", ["requestType": "RequestLogs", "captureMinutes": "15"])
            _ = try Seed.seed(console, [Seed.line("First after", minutes: 1), Seed.line("Second after", minutes: 2)])
            let live = try await api.call(client, .get, "/devices/\(device)/live?after=\(newest)", token: nil, headers: [.cookie: hal.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")])
            #expect(live.status == .ok && live.json["added"] as? Int == 2)
            #expect(Seed.messages(live.json["rows"] as? String ?? "") == ["Second after", "First after"])
            let commands = try #require(live.json["commands"] as? [[String: Any]])
            #expect(commands.first?["statusName"] as? String == "Queued")
            let command = try #require(try await console.services.database.read { try $0.fetchOne(DeviceCommandRecord.query()) })
            let withCommand = try await hal.get("/devices/\(device)")
            #expect(withCommand.body.contains("<tr data-command=\"\(command.uuid)\"><td>\(HTMLText.escape(command.command.summary))</td>"),
                    "the page's history names the queued command")
            let again = try await api.call(client, .get, "/devices/\(device)/live?after=\(live.json["newest"] as? String ?? "")", token: nil,
                                            headers: [.cookie: hal.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")])
            #expect(again.json["added"] as? Int == 0)
        }
    }

    @Test func everyFeedbackFetchIsKeptChartedAndTabled() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await DeviceAPITests().enroll(admin, name: "Ward iPad", supervised: true, group: nil, app: nil, console: console)
            for (index, synced) in [3, 7, 12].enumerated() {
                _ = try await admin.get("/devices/\(device.id)")
                _ = try await admin.post("/devices/\(device.id)/commands", ["requestType": "ManagedApplicationFeedback", "apps": "com.example.notes",
                                                                            "deleteFeedback": index == 2 ? "on" : ""].filter { !$0.value.isEmpty })
                let waiting = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
                let uuid = try #require(((waiting.json["commands"] as? [[String: Any]])?.first)?["CommandUUID"] as? String)
                let answer = """
                    {"Status": "Acknowledged", "ManagedApplicationFeedback": [{"Identifier": "com.example.notes",
                      "Feedback": {"syncedRecords": \(synced), "lastError": "E_TIMEOUT <b>", "healthy": \(index != 1)}}]}
                    """
                #expect(try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: answer).status == .ok)
                console.clock.advance(by: 3600)
            }
            let page = try await admin.get("/devices/\(device.id)")
            #expect(page.body.contains("<dt>syncedRecords</dt><dd>12</dd>") && page.body.contains("then reset on the device"))
            let history = try await admin.get("/devices/\(device.id)/feedback?app=com.example.notes")
            #expect(history.body.components(separatedBy: "<figure class=\"chart\">").count == 2, "one chart: the only number")
            #expect(history.body.contains("syncedRecords: 3 fetches, from 3 to 12"))
            #expect(history.body.components(separatedBy: "<circle").count == 4)
            #expect(history.body.contains("E_TIMEOUT &lt;b&gt;") && !history.body.contains("E_TIMEOUT <b>"))
            #expect(history.body.contains("<td>false</td>"))

            // A reply with feedback that is not flat, or from something that is not an app, is refused whole.
            _ = try await admin.get("/devices/\(device.id)")
            _ = try await admin.post("/devices/\(device.id)/commands", ["requestType": "ManagedApplicationFeedback"])
            let waiting = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let uuid = try #require(((waiting.json["commands"] as? [[String: Any]])?.first)?["CommandUUID"] as? String)
            let nested = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                            body: #"{"Status": "Acknowledged", "ManagedApplicationFeedback": [{"Identifier": "com.example.notes", "Feedback": {"a": {"b": 1}}}]}"#)
            #expect(nested.status == .unprocessableContent)
            #expect((nested.json["error"] as? [String: Any])?["field"] as? String == "ManagedApplicationFeedback.0.Feedback.a")
            let notAnApp = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                              body: #"{"Status": "Acknowledged", "ManagedApplicationFeedback": [{"Identifier": "not an app"}]}"#)
            #expect(notAnApp.status == .unprocessableContent)
            #expect(try await console.services.database.read { try $0.count(AppFeedbackRecord.query()) } == 3)
        }
    }
}

/// The same workspace for scripts: a device's token, commands, feedback history and notes.
@Suite struct HelpdeskAPITests {
    let api = APITests()

    @Test func scriptsQueueCommandsWriteNotesAndRotateTokensWithinTheirRoles() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            let device = try await DeviceAPITests().enroll(browser, name: "Van 7", supervised: true, group: nil, app: nil, console: console)

            let queued = try await api.call(client, .post, "/api/v1/devices/\(device.id)/commands", token: helpdesk,
                                            body: #"{"requestType": "RequestLogs", "captureMinutes": 30}"#)
            #expect(queued.status == .created && queued.json["summary"] as? String == "Capture logs for 30 minutes")
            let configuration = try await api.call(client, .post, "/api/v1/devices/\(device.id)/commands", token: helpdesk, body: #"{"requestType": "Settings"}"#)
            #expect(configuration.status == .forbidden, "app configuration is an admin's")
            let restart = try await api.call(client, .post, "/api/v1/devices/\(device.id)/commands", token: helpdesk, body: #"{"requestType": "RestartDevice"}"#)
            #expect(restart.status == .created, "helpdesk gets a stuck device going again")
            let badApp = try await api.call(client, .post, "/api/v1/devices/\(device.id)/commands", token: helpdesk,
                                            body: #"{"requestType": "ManagedApplicationFeedback", "apps": ["com.example.ok", "no"]}"#)
            #expect(badApp.status == .unprocessableContent && (badApp.json["error"] as? [String: Any])?["field"] as? String == "apps.1")
            let listed = try await api.call(client, .get, "/api/v1/devices/\(device.id)/commands", token: helpdesk)
            #expect((listed.json["commands"] as? [[String: Any]])?.map { $0["requestType"] as? String } == ["RestartDevice", "RequestLogs"])

            let note = try await api.call(client, .post, "/api/v1/devices/\(device.id)/notes", token: helpdesk, body: #"{"body": "Screen cracked"}"#)
            #expect(note.status == .created)
            let noteID = try #require(note.json["id"] as? Int)
            let blank = try await api.call(client, .post, "/api/v1/devices/\(device.id)/notes", token: helpdesk, body: #"{"body": "  "}"#)
            #expect(blank.status == .unprocessableContent && (blank.json["error"] as? [String: Any])?["field"] as? String == "body")
            let edited = try await api.call(client, .put, "/api/v1/devices/\(device.id)/notes/\(noteID)", token: admin, body: #"{"body": "Screen replaced"}"#)
            #expect(edited.status == .ok && edited.json["body"] as? String == "Screen replaced")
            let notes = try await api.call(client, .get, "/api/v1/devices/\(device.id)/notes", token: helpdesk)
            #expect((notes.json["notes"] as? [[String: Any]])?.first?["body"] as? String == "Screen replaced")

            let feedback = try await api.call(client, .get, "/api/v1/devices/\(device.id)/feedback?app=com.example.notes", token: helpdesk)
            #expect(feedback.status == .ok && (feedback.json["feedback"] as? [Any])?.isEmpty == true)
            #expect(try await api.call(client, .get, "/api/v1/devices/\(device.id)/feedback", token: helpdesk).status == .badRequest)
            // Found by schemathesis: a bundle ID is read trimmed, as the document says, here as in bodies.
            let padded = try await api.call(client, .get, "/api/v1/devices/\(device.id)/feedback?app=%E2%80%AF%09com.example.notes%0A%E2%80%83", token: helpdesk)
            #expect(padded.status == .ok && padded.json["app"] as? String == "com.example.notes")
            let unusedButWrong = try await api.call(client, .post, "/api/v1/devices/\(device.id)/commands", token: admin,
                                                    body: #"{"requestType": "Settings", "captureMinutes": 0}"#)
            #expect(unusedButWrong.status == .unprocessableContent, "a field the command does not use is still checked")

            // Checked in once, so the token cache holds the old token when it is replaced.
            #expect(try await api.call(client, .get, "/api/v1/device/policy", token: device.token).status == .ok)
            #expect(try await api.call(client, .post, "/api/v1/devices/\(device.id)/token", token: helpdesk).status == .forbidden)
            let rotated = try await api.call(client, .post, "/api/v1/devices/\(device.id)/token", token: admin)
            let newToken = try #require(rotated.json["token"] as? String)
            #expect(rotated.status == .created && newToken != device.token)
            #expect(try await api.call(client, .get, "/api/v1/device/policy", token: device.token).status == .unauthorized, "the old token stops working")
            #expect(try await api.call(client, .get, "/api/v1/device/policy", token: newToken).status == .ok)
        }
    }
}
