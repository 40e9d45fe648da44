@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

@Suite struct UsersTests {
    @Test func anAdminAddsAUserWhoGetsAOneTimePasswordAndMustChangeIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/users")
            let added = try await admin.post("/users", ["email": "Bob@Example.com", "role": "helpdesk"])
            #expect(added.status == .created)
            #expect(added.body.contains("bob@example.com can now sign in"))
            let password = try #require(Self.oneTimePassword(in: added.body))

            let bob = Browser(client)
            let signIn = try await bob.signIn("bob@example.com", password: password)
            #expect(signIn.location == "/account/password")
            // Until Bob chooses a password every other page sends him back.
            #expect(try await bob.get("/dashboard").location == "/account/password")
            try await bob.get("/account/password")
            let changed = try await bob.post("/account/password", ["current": password, "new": "bobs own passphrase", "confirmation": "bobs own passphrase"])
            #expect(changed.location == "/dashboard")
            #expect(try await bob.get("/dashboard").status == .ok)
        }
        let bob = try console.services.database.readBlocking { try $0.fetchOne(User.query().filter("email", .equal, "bob@example.com")) }
        #expect(bob?.role == .helpdesk)
        #expect(bob?.mustChangePassword == false)
        let actions = try console.services.database.readBlocking { try $0.fetch(AuditEvent.query()).map(\.action) }
        #expect(actions.contains("user.created"))
        #expect(actions.contains("user.password_changed"))
    }

    @Test func aDuplicateOrMalformedEmailReRendersTheFormWithTheValueAndAMessage() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/users")
            let duplicate = try await admin.post("/users", ["email": "ANN@example.com", "role": "viewer"])
            #expect(duplicate.status == .unprocessableContent)
            #expect(duplicate.body.contains("There is already an account for ann@example.com."))
            #expect(duplicate.body.contains(#"value="ANN@example.com""#))

            let malformed = try await admin.post("/users", ["email": "bob at example", "role": "admin"])
            #expect(malformed.status == .unprocessableContent)
            #expect(malformed.body.contains(#"id="new-email-error""#))
            #expect(malformed.body.contains(#"value="admin" checked"#))

            let noRole = try await admin.post("/users", ["email": "bob@example.com", "role": "root"])
            #expect(noRole.status == .unprocessableContent)
            #expect(noRole.body.contains("Choose a role."))
        }
        #expect(try console.services.database.readBlocking { try $0.count(User.query()) } == 1)
    }

    @Test func theLastAdminCannotBeDemotedOrRemoved() async throws {
        let console = try await TestConsole.make()
        let ann = try await console.addUser("ann@example.com", role: .admin)
        let bob = try await console.addUser("bob@example.com", role: .admin)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            try await admin.get("/users")
            // Removing oneself is refused outright.
            let removeSelf = try await admin.post("/users/\(ann.id)/delete")
            #expect(removeSelf.status == .conflict)
            #expect(removeSelf.body.contains("cannot remove your own account"))

            // Bob can be demoted while Ann remains admin…
            let demoteBob = try await admin.post("/users/\(bob.id)/role", ["role": "viewer"])
            #expect(demoteBob.status == .seeOther)
            // …but then Ann is the only admin left.
            try await admin.get("/users")
            let demoteSelf = try await admin.post("/users/\(ann.id)/role", ["role": "viewer"])
            #expect(demoteSelf.status == .conflict)
            #expect(demoteSelf.body.contains("is the only admin"))

            let removeBob = try await admin.post("/users/\(bob.id)/delete")
            #expect(removeBob.status == .seeOther)
            let after = try await admin.get("/users")
            #expect(after.body.contains("Removed bob@example.com."))
            #expect(!after.body.contains("<td>bob@example.com"))
        }
        let users = try console.services.database.readBlocking { try $0.fetch(User.query()) }
        #expect(users.map(\.email) == ["ann@example.com"])
        #expect(users.first?.role == .admin)
    }

    @Test func changingThePasswordChecksTheCurrentOneAndSignsOutOtherSessions() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .viewer)
        try await console.test { client in
            let laptop = Browser(client), tablet = Browser(client)
            try await laptop.signIn("ann@example.com", password: TestConsole.password)
            try await tablet.signIn("ann@example.com", password: TestConsole.password)
            try await laptop.get("/account/password")

            let wrong = try await laptop.post("/account/password", ["current": "nope", "new": "short", "confirmation": "other"])
            #expect(wrong.status == .unprocessableContent)
            #expect(wrong.body.contains("That is not your current password."))
            #expect(wrong.body.contains("Use at least 10 characters."))

            let mismatch = try await laptop.post("/account/password", ["current": TestConsole.password, "new": "a brand new phrase", "confirmation": "a brand new phrasf"])
            #expect(mismatch.body.contains("The two new passwords do not match."))

            let changed = try await laptop.post("/account/password", ["current": TestConsole.password, "new": "a brand new phrase", "confirmation": "a brand new phrase"])
            #expect(changed.location == "/dashboard")
            #expect(try await laptop.get("/dashboard").status == .ok)
            #expect(try await tablet.get("/dashboard").status == .seeOther)

            let fresh = Browser(client)
            #expect(try await fresh.signIn("ann@example.com", password: "a brand new phrase").location == "/dashboard")
        }
    }

    static func oneTimePassword(in body: String) -> String? {
        guard let range = body.range(of: #"<code class="secret">"#) else { return nil }
        return String(body[range.upperBound...].prefix { $0 != "<" })
    }
}
