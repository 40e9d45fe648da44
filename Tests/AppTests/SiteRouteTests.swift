@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Pages and form actions are declared once (`Site`): the route table, the handler's values
/// and the links views make all come from the declaration.
@Suite struct SiteRouteTests {
    @Test func aLinkFillsTheDeclaredPatternWithItsValuesEachSegmentEncoded() {
        let device = RecordID<DeviceRecord>(42)
        #expect(Site.Devices.show.link(device) == "/devices/42")
        #expect(Site.Devices.removeNote.link(device, RecordID(7)) == "/devices/42/notes/7/delete")
        #expect(Site.Profiles.payloadForm.link(RecordID(3), .dlp) == "/profiles/3/payloads/dlp")
        // A value never reaches past its own segment: a slash or a space is escaped.
        #expect(Site.Help.topic.link("a b/c") == "/help/a%20b%2Fc")
        #expect(Site.dashboard.link() == "/dashboard")
    }

    @Test func queryLinksLeaveOutMissingValuesAndEscapeTheRest() {
        #expect(Site.Logs.crashGroups() == "/logs/crashes")
        #expect(Site.Logs.crashGroups(app: "com.example.a&b", hours: 24) == "/logs/crashes?app=com%2Eexample%2Ea%26b&hours=24")
        #expect(Site.Help.page("payloads/dlp") == "/help/payloads/dlp")
        #expect(Site.Help.page("roles") == "/help/roles")
    }

    @Test func theRouteTableHoldsEachDeclarationWithItsRole() async throws {
        let console = try await TestConsole.make()
        let declared: [(HTTPRequest.Method, String, Role)] = [
            (Site.Devices.remove.method, Site.Devices.remove.pattern, Site.Devices.remove.role),
            (Site.Devices.editNote.method, Site.Devices.editNote.pattern, Site.Devices.editNote.role),
            (Site.Profiles.restore.method, Site.Profiles.restore.pattern, Site.Profiles.restore.role),
            (Site.Tour.markStep.method, Site.Tour.markStep.pattern, Site.Tour.markStep.role),
        ]
        for (method, pattern, role) in declared {
            #expect(console.routes.contains(RouteEntry(method: method, path: pattern, access: .role(role))), "\(method) \(pattern)")
        }
        #expect(console.routes.contains(RouteEntry(method: .post, path: Site.Accounts.signOut.path, access: .anyone)))
    }

    @Test func anAddressValueOfTheWrongTypeIsRefusedBeforeTheHandlerRuns() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let profile = try await ProfileStore(database: console.services.database, now: { Date() })
            .create(identifier: "com.example.routes", content: ProfileContent(name: "Routes"), by: .system)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            #expect(try await browser.get("/devices/not-a-number").status == .badRequest)
            #expect(try await browser.get("/devices/0").status == .badRequest)
            #expect(try await browser.get("/profiles/\(profile.id)/versions/one").status == .badRequest)
            // A payload kind the console does not know has no page.
            #expect(try await browser.get("/profiles/\(profile.id)/payloads/no-such-kind").status == .notFound)
            #expect(try await browser.get(Site.Profiles.payloadForm.link(profile.id, .dlp)).status == .ok)
            #expect(try await browser.get(Site.Profiles.version.link(profile.id, 1)).status == .ok)
        }
    }

    /// API operations declare the values their paths carry the same way: a value of the wrong
    /// type is the client's mistake (400) before the handler runs, and the document describes
    /// each path value from its type.
    @Test func anAPIPathValueIsReadIntoItsTypeAndDocumentedFromIt() async throws {
        let console = try await TestConsole.make()
        let api = APITests()
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let notAnID = try await api.call(client, .get, "/api/v1/profiles/abc", token: admin)
            let notANumber = try await api.call(client, .get, "/api/v1/profiles/1/versions/x/sdk-profile", token: admin)
            let missing = try await api.call(client, .get, "/api/v1/profiles/999", token: admin)
            #expect(notAnID.status == .badRequest && notANumber.status == .badRequest)
            #expect(missing.status == .notFound)
        }
        let document = try await TestConsole.openAPIDocument()
        let unassign = try #require(((document["paths"] as? [String: Any])?["/api/v1/profiles/{id}/assignments/{group}"] as? [String: Any])?["delete"] as? [String: Any])
        let parameters = try #require(unassign["parameters"] as? [[String: Any]])
        #expect(parameters.prefix(2).map { $0["name"] as? String } == ["id", "group"])
        #expect(parameters.prefix(2).allSatisfy { $0["in"] as? String == "path" && ($0["schema"] as? [String: Any])?["minimum"] as? Int == 1 })
        // A version number past 64 bits is refused (400), so the document bounds it as it does ids.
        let export = try #require(((document["paths"] as? [String: Any])?["/api/v1/profiles/{id}/versions/{number}/sdk-profile"] as? [String: Any])?["get"] as? [String: Any])
        let number = try #require((export["parameters"] as? [[String: Any]])?.first { $0["name"] as? String == "number" })
        #expect((number["schema"] as? [String: Any])?["format"] as? String == "int64")
    }
}
