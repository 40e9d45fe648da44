@testable import App
import Domain
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// Open redirects, the sign-in throttle under parallel guesses, cookie sizes, the power of API
/// tokens, and methods a path does not take.
@Suite struct SecurityTests {
    @Test(arguments: ["/%09/evil.example", "/\t/evil.example", "/\\evil.example", "//evil.example", "/\n/evil.example",
                      "https://evil.example", "/%2F/evil.example", " /x", "", "javascript:alert(1)", "/\u{7F}/evil.example"])
    func onlyASameOriginPathIsAPlaceToGoBackTo(_ next: String) {
        #expect(LocalPath.sanitised(next) == "/dashboard")
    }

    @Test(arguments: ["/", "/users", "/devices/12?tab=logs#top", "/profiles/3/versions/2", "/logs?q=a%20b"])
    func ordinaryPathsAreKept(_ next: String) {
        #expect(LocalPath.sanitised(next) == next)
    }

    @Test func signingInWithATabbedNextStaysOnThisSite() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            let page = try await browser.get("/sign-in?next=/%09/evil.example")
            #expect(!page.body.contains("evil.example"))
            let answer = try await browser.post("/sign-in", ["email": "ann@example.com", "password": TestConsole.password, "next": "/\t/evil.example"])
            #expect(answer.location == "/dashboard")
        }
    }

    @Test func parallelGuessesCannotSlipPastTheThrottle() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let pages = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                for attempt in 0..<30 {
                    group.addTask {
                        let browser = Browser(client)
                        try await browser.get("/sign-in")
                        return try await browser.post("/sign-in", ["email": "ann@example.com", "password": "guess \(attempt)"]).status
                    }
                }
                return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
            }
            let checked = pages.filter { $0 != .tooManyRequests }
            #expect(checked.count <= SignInThrottle().freeAttempts + 1, "\(pages)")
            let browser = Browser(client)
            let right = try await browser.signIn("ann@example.com", password: TestConsole.password)
            #expect(right.status == .tooManyRequests)
        }
    }

    @Test func aHugeUnknownActionNameLeavesASmallCookie() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let device = try console.services.database.writeBlocking { connection in
            try connection.insert(DeviceRecord(
                name: "Lobby 1", model: .iPad, osVersion: "17.4", serialNumber: "DMPXK2ABCD", udid: "00008101-000A1B2C3D4E5F60",
                isSupervised: true, owner: "", groupID: nil, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil)).id
        }
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            try await browser.get("/simulator/\(device)")
            let answer = try await browser.post("/simulator/\(device)/actions", ["action": String(repeating: "x", count: 200_000)])
            // Refused on the page itself, the name clipped in the message.
            #expect(answer.status == .unprocessableContent)
            #expect(answer.body.contains("Unknown action xxxx"))
            #expect(!answer.body.contains(String(repeating: "x", count: 1_000)))
            let cookies = answer.headers[values: .setCookie]
            #expect(cookies.allSatisfy { $0.utf8.count < 4096 }, "\(cookies.map(\.utf8.count))")
        }
        // Whatever a message quotes, the flash cookie holding it stays small.
        #expect(Flash.error(String(repeating: "é", count: 200_000)).cookieValue.utf8.count < 4096)
    }

    @Test func aTokenActsAtMostWithItsCreatorsCurrentRoleAndDiesWithTheAccount() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("boss@example.com", role: .admin)
        let ann = try await console.addUser("ann@example.com", role: .admin)
        let store = APITokenStore(database: console.services.database, now: { Date() })
        let token = try await store.create(name: "ann's script", role: .admin, by: Actor(ann)).token
        @Sendable func createGroup(_ client: any TestClientProtocol, _ name: String) async throws -> HTTPResponse.Status {
            try await client.execute(uri: "/api/v1/groups", method: .post,
                                     headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
                                     body: ByteBuffer(string: #"{"name": "\#(name)"}"#)).status
        }
        try await console.test { client in
            let answerOne = try await createGroup(client, "One")
            #expect(answerOne == .created)
            try await console.services.accounts.changeRole(of: ann.id, to: .viewer, by: .system)
            let answerTwo = try await createGroup(client, "Two")
            #expect(answerTwo == .forbidden)
            try await console.services.accounts.changeRole(of: ann.id, to: .admin, by: .system)
            let answerThree = try await createGroup(client, "Three")
            #expect(answerThree == .created)
            try await console.services.accounts.deleteUser(ann.id, by: .system)
            let answerFour = try await createGroup(client, "Four")
            #expect(answerFour == .unauthorized)
        }
        let revoked = try console.services.database.readBlocking { try $0.fetch(APITokenRecord.query()) }
        #expect(revoked.allSatisfy { $0.revokedAt != nil })
    }

    @Test func aMethodThePathDoesNotTakeIs405WithAllow() async throws {
        let console = try await TestConsole.make()
        try await console.test { client in
            let trace = try await client.execute(uri: "/sign-in", method: .init("TRACE")!)
            #expect(trace.status == .methodNotAllowed)
            #expect(trace.headers[.allow] == "GET, HEAD, POST")
            let patch = try await client.execute(uri: "/api/v1/profiles/1", method: .patch)
            #expect(patch.status == .methodNotAllowed)
            #expect(patch.headers[.allow] == "GET, HEAD, PUT")
            let answered = try await client.execute(uri: "/no-such-page", method: .init("TRACE")!).status
            #expect(answered == .notFound)
        }
    }
}

/// NUL bytes must not truncate what is stored or compared: SQLite's text binding with length
/// -1 and bcrypt both stop at the first NUL.
@Suite struct NULTests {
    @Test func aNULCannotShortenAnEmailOrPasswordAtSignIn() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let byEmail = Browser(client)
            try await byEmail.get("/sign-in")
            let email = try await byEmail.post("/sign-in", ["email": "ann@example.com\u{0}junk", "password": TestConsole.password])
            #expect(email.status == .unprocessableContent)
            let byPassword = Browser(client)
            try await byPassword.get("/sign-in")
            let password = try await byPassword.post("/sign-in", ["email": "ann@example.com", "password": TestConsole.password + "\u{0}anything"])
            #expect(password.status == .unprocessableContent)
        }
    }

    @Test func aNULAfterTheCurrentPasswordDoesNotChangeIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let browser = Browser(client)
            try await browser.signIn("ann@example.com", password: TestConsole.password)
            try await browser.get("/account/password")
            let answer = try await browser.post("/account/password", [
                "current": TestConsole.password + "\u{0}x", "new": "a brand new passphrase", "confirmation": "a brand new passphrase"])
            #expect(answer.status == .unprocessableContent)
        }
    }

    @Test func aTokenNameWithAControlCharacterIsRefused() async throws {
        let console = try await TestConsole.make()
        let store = APITokenStore(database: console.services.database, now: { Date() })
        await #expect(throws: FieldErrors.self) { try await store.create(name: "tok\u{1}en", role: .viewer, by: .system) }
        #expect(try console.services.database.readBlocking { try $0.count(APITokenRecord.query()) } == 0)
    }

    /// Text with a NUL is never cut short at it (SQLite would store "a" for "a\0b" if bound by
    /// C string) — nor stored on one backend and refused on the other: it is refused whole.
    @Test func textWithANULIsRefusedNotCutShort() throws {
        let database = try Storage.Database(path: ":memory:")
        struct Stored: Decodable { let v: String }
        #expect(throws: StorageError.textWithNUL) {
            try database.writeBlocking { connection in
                _ = try connection.execute("CREATE TABLE t (v TEXT)")
                _ = try connection.execute("INSERT INTO t (v) VALUES (\("a\u{0}b"))")
            }
        }
        let stored = try database.readBlocking { connection -> [String] in
            guard try connection.scalar("SELECT count(*) FROM sqlite_master WHERE name = 't'", as: Int.self) == 1 else { return [] }
            return try connection.fetch(Stored.self, "SELECT v FROM t").map(\.v)
        }
        #expect(stored.isEmpty, "nothing of the refused write stays")
    }
}
