@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// A note belongs to whoever wrote it — a person, or the API token it came through and the
/// person who made that token — and the same rule decides on the page and in the API.
@Suite struct NoteAuthorshipTests {
    typealias Seed = LogViewerTests
    let api = APITests()

    func token(_ console: TestConsole, role: Role, madeBy person: User?) async throws -> String {
        try await APITokenStore(database: console.services.database, now: { Date() })
            .create(name: "script", role: role, by: person.map(Actor.init) ?? .system).token
    }

    func notePath(_ device: RecordID<DeviceRecord>, _ note: Int) -> String { "/api/v1/devices/\(device)/notes/\(note)" }

    @Test func aHelpdeskTokenCannotChangeANoteAnotherTokenWrote() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [])
        let ann = try await console.addUser("ann@example.com", role: .admin)
        let hal = try await console.addUser("hal@example.com", role: .helpdesk)
        let annsScript = try await token(console, role: .admin, madeBy: ann)
        let halsScript = try await token(console, role: .helpdesk, madeBy: hal)
        let serverScript = try await token(console, role: .helpdesk, madeBy: nil)
        try await console.test { client in
            let written = try await api.call(client, .post, "/api/v1/devices/\(device)/notes", token: annsScript, body: #"{"body": "Escalated to Apple"}"#)
            let noteID = try #require(written.json["id"] as? Int)

            for other in [halsScript, serverScript] {
                let edit = try await api.call(client, .put, notePath(device, noteID), token: other, body: #"{"body": "Mine now"}"#)
                #expect(edit.status == .forbidden)
                #expect(try await api.call(client, .delete, notePath(device, noteID), token: other).status == .forbidden)
            }
            let stored = try await console.services.database.read { try $0.require(DeviceNoteRecord.self, id: RecordID(Int64(noteID))) }
            #expect(stored.body == "Escalated to Apple")

            let ownEdit = try await api.call(client, .put, notePath(device, noteID), token: annsScript, body: #"{"body": "Escalated, case 4411"}"#)
            #expect(ownEdit.status == .ok)

            let serverNote = try #require(try await api.call(client, .post, "/api/v1/devices/\(device)/notes", token: serverScript,
                                                              body: #"{"body": "Nightly check ran"}"#).json["id"] as? Int)
            #expect(try await api.call(client, .put, notePath(device, serverNote), token: halsScript, body: #"{"body": "x"}"#).status == .forbidden,
                    "a command-line token has no person, and is still not every token")
            #expect(try await api.call(client, .put, notePath(device, serverNote), token: serverScript, body: #"{"body": "Nightly check ran twice"}"#).status == .ok)
        }
    }

    @Test func thePersonWhoMadeATokenOwnsItsNotesOnThePageAndNobodyElse() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [])
        let hal = try await console.addUser("hal@example.com", role: .helpdesk)
        let halsScript = try await token(console, role: .helpdesk, madeBy: hal)
        try await console.addUser("bea@example.com", role: .helpdesk)
        try await console.test { client in
            let noteID = try #require(try await api.call(client, .post, "/api/v1/devices/\(device)/notes", token: halsScript,
                                                          body: #"{"body": "Battery swollen"}"#).json["id"] as? Int)
            let halsBrowser = Browser(client)
            try await halsBrowser.signIn("hal@example.com", password: TestConsole.password)
            let page = try await halsBrowser.get("/devices/\(device)")
            #expect(page.body.contains("/notes/\(noteID)/edit"), "the author is offered Edit for what their script wrote")
            #expect(try await halsBrowser.post("/devices/\(device)/notes/\(noteID)", ["body": "Battery replaced"]).status == .seeOther)

            let bea = Browser(client)
            try await bea.signIn("bea@example.com", password: TestConsole.password)
            let othersPage = try await bea.get("/devices/\(device)")
            #expect(!othersPage.body.contains("/notes/\(noteID)/edit"))
            #expect(try await bea.post("/devices/\(device)/notes/\(noteID)/delete").status == .forbidden)

            // And the other way round: the person's own page note through their token.
            _ = try await halsBrowser.get("/devices/\(device)")
            #expect(try await halsBrowser.post("/devices/\(device)/notes", ["body": "Called the ward"]).status == .seeOther)
            let pageNote = try #require(try await console.services.database.read {
                try $0.fetchOne(DeviceNoteRecord.query().filter("body", .equal, "Called the ward"))
            })
            #expect(pageNote.authorTokenID == nil && pageNote.authorID == hal.id)
            #expect(try await api.call(client, .put, notePath(device, Int(pageNote.id.rawValue)), token: halsScript, body: #"{"body": "Called twice"}"#).status == .ok)
        }
    }

    /// A command-line token's made-up user has no stored id (`RecordID.unsaved`): what it writes
    /// names no person, rather than a person 0.
    @Test func aCommandLineTokensNoteAndAuditEntryNameNoPerson() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [])
        let serverScript = try await token(console, role: .helpdesk, madeBy: nil)
        try await console.test { client in
            let noteID = try #require(try await api.call(client, .post, "/api/v1/devices/\(device)/notes", token: serverScript,
                                                          body: #"{"body": "Nightly check ran"}"#).json["id"] as? Int)
            let (note, entry) = try await console.services.database.read { connection in
                (try connection.require(DeviceNoteRecord.self, id: RecordID(Int64(noteID))),
                 try connection.fetchOne(AuditEvent.query().filter("action", .equal, AuditAction.noteAdded.rawValue)))
            }
            #expect(note.authorID == nil)
            #expect(note.authorTokenID != nil)
            let audited = try #require(entry)
            #expect(audited.actorID == nil)
            #expect(audited.actorEmail == "token:script")
        }
    }

    @Test func aNoteWhoseAuthorIsGoneIsTheAdminsAlone() async throws {
        let console = try await TestConsole.make()
        let device = try Seed.seed(console, [])
        let ann = try await console.addUser("ann@example.com", role: .admin)
        let hal = try await console.addUser("hal@example.com", role: .helpdesk)
        let halsScript = try await token(console, role: .helpdesk, madeBy: hal)
        let otherScript = try await token(console, role: .helpdesk, madeBy: nil)
        let annsScript = try await token(console, role: .admin, madeBy: ann)
        try await console.test { client in
            let noteID = try #require(try await api.call(client, .post, "/api/v1/devices/\(device)/notes", token: halsScript,
                                                          body: #"{"body": "Left by Hal"}"#).json["id"] as? Int)
            try await console.services.accounts.deleteUser(hal.id, by: Actor(ann))
            #expect(try await api.call(client, .delete, notePath(device, noteID), token: otherScript).status == .forbidden)
            #expect(try await api.call(client, .delete, notePath(device, noteID), token: annsScript).status == .noContent)
        }
    }
}
