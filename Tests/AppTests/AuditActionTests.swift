@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// Audit actions are one enum: each code is stored as it always was, reads as its own words,
/// falls under one of the audit log's kinds of object, and a code stored by another version of
/// the console still shows (as itself) on the page, in the CSV and in the dashboard's feed.
@Suite struct AuditActionTests {
    @Test func everyActionHasWordingOfItsOwn() {
        let wordings = AuditAction.allCases.map(\.wording)
        #expect(wordings.allSatisfy { !$0.trimmingCharacters(in: .whitespaces).isEmpty })
        #expect(Set(wordings).count == AuditAction.allCases.count, "two actions would read alike in the log")
        #expect(wordings.allSatisfy { $0 == $0.trimmingCharacters(in: .whitespaces) && !$0.contains(".") }, "words, not codes")
    }

    /// The filter narrows by the code's first part; an action outside every kind could only be
    /// found unfiltered.
    @Test func everyActionFallsUnderOneKindOfObjectTheFilterOffers() {
        let kinds = Set(AuditFilter.ObjectType.allCases.map(\.rawValue))
        for action in AuditAction.allCases {
            let parts = action.rawValue.split(separator: ".", omittingEmptySubsequences: false)
            #expect(parts.count == 2 && kinds.contains(String(parts[0])), "\(action.rawValue)")
            #expect(parts.last?.allSatisfy { $0.isLowercase || $0 == "_" } == true, "\(action.rawValue) is a stable lower-case code")
        }
    }

    /// Codes are what older entries and CSV readers hold: these must never change.
    @Test func codesAreStoredAsTheyAlwaysWere() async throws {
        let console = try await TestConsole.make()
        try console.services.database.writeBlocking { connection in
            try connection.audit(.userSignedIn, subject: "ann@example.com", by: .system)
            try connection.audit(.appSpecfileImported, subject: "com.example.app", by: .system)
            try connection.audit(.profileImported, subject: "Lobby", by: .system)
        }
        let stored = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query().order(by: "id")) }.map(\.action)
        #expect(stored.suffix(3) == ["user.signed_in", "app.specfile", "profile.imported"])
    }

    @Test func anImportReadsAsWordsNotItsCode() {
        // These two showed their bare codes before the wording lived beside each action.
        #expect(AuditAction.appSpecfileImported.wording == "imported a specfile for")
        #expect(AuditAction.profileImported.wording == "imported the profile")
        #expect(ActivityFeed.plural(AuditAction.appSpecfileImported.wording, 2) == "imported 2 specfiles for")
        #expect(ActivityFeed.plural(AuditAction.profileImported.wording, 3) == "imported 3 profiles")
    }

    @Test func anEntryWithACodeThisConsoleDoesNotKnowShowsItsCodeEverywhere() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("admin@example.com", role: .admin)
        let time = console.clock.now.addingTimeInterval(-60)
        try await console.services.database.write { connection in
            _ = try connection.insert(AuditEvent(occurredAt: time, actorID: nil, actorEmail: "ann@example.com",
                                                 action: "device.teleported", subject: "Lobby kiosk 01", before: nil, after: "to the moon"))
            try connection.audit(.profileImported, subject: "Lobby lock", by: Actor(userID: nil, email: "ann@example.com"), at: time)
        }
        let unknown = try await console.services.database.read { try $0.fetchOne(AuditEvent.query().filter("action", .equal, "device.teleported")) }
        #expect(try #require(unknown).wording == "device.teleported")

        let feed = ActivityFeed.entries(try await console.services.database.read { try $0.fetch(AuditEvent.query().order(by: "id", .descending)) },
                                        now: console.clock.now, limit: 10)
        #expect(feed.contains { $0.action == "device.teleported" && $0.subject == "Lobby kiosk 01" })
        #expect(feed.contains { $0.action == "imported the profile" && $0.subject == "Lobby lock" })

        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("admin@example.com", password: TestConsole.password)
            let page = try await admin.get("/audit")
            #expect(page.status == .ok)
            #expect(page.body.contains("<strong>ann@example.com</strong> device.teleported <span class=\"subject\">Lobby kiosk 01</span>"))
            #expect(page.body.contains("<strong>ann@example.com</strong> imported the profile <span class=\"subject\">Lobby lock</span>"))
            let csv = try await admin.get("/audit.csv")
            #expect(csv.body.contains(",ann@example.com,device.teleported,device.teleported,Lobby kiosk 01,,to the moon\r\n"))
            #expect(csv.body.contains(",ann@example.com,imported the profile,profile.imported,Lobby lock,,\r\n"))
            #expect(try await admin.get("/dashboard").body.contains("device.teleported"))
        }
    }
}
