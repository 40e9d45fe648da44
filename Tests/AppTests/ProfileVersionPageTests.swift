@testable import App
import Domain
import Foundation
import Storage
import Testing

/// An old version's page lists what that version holds (not every kind it lacks) and says that
/// assigning from it sends groups the latest version; the latest version's page, for an admin,
/// still offers every kind to add, and a viewer sees only what the profile holds.
@Suite struct ProfileVersionPageTests {
    @Test func anOldVersionListsWhatItHoldsAndSaysAssignmentsTakeTheLatest() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.addUser("vic@example.com", role: .viewer)
        let store = console.services.profileStore
        let profile = try await store.create(identifier: "com.example.rules", content: ProfileContent(name: "Rules"), by: .system)
        try await store.saveVersion(of: profile.id, basedOn: 1, content: ProfileContent(name: "Rules", payloads: [Payload(Logging(level: .debug))]),
                                    note: "", by: .system)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let old = try await admin.get("/profiles/\(profile.id)/versions/1")
            #expect(old.body.contains("This version holds no payload.") && !old.body.contains(#"id="payload-geofence""#))
            #expect(old.body.contains("Groups get the latest version, 2, whichever version this page shows"))
            let latest = try await admin.get("/profiles/\(profile.id)")
            #expect(latest.body.contains(#"id="payload-geofence""#) && latest.body.contains(#"id="payload-logging""#), "an admin adds kinds here")
            #expect(!latest.body.contains("Groups get the latest version"))

            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            let seen = try await viewer.get("/profiles/\(profile.id)")
            #expect(seen.body.contains(#"id="payload-logging""#) && !seen.body.contains(#"id="payload-geofence""#))
        }
    }
}
