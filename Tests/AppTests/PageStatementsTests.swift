@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// On PostgreSQL every statement is a round trip to the server, which on a machine the console
/// shares with it costs more than the page's own work: the busiest pages — the device page
/// (helpdesk opens it for every call) and the profile list — ask for a bounded number of
/// statements, counted the same on both backends.
@Suite struct PageStatementsTests {
    /// The session with its user (1); the device with its simulator state and beacon, the
    /// profiles reaching its group, its commands, feedback and notes (5); its recent log lines
    /// with the last that arrived, and its apps' storage (2). Groups, apps and settings come
    /// from memory. (Before: 15.)
    static let bound = 8

    @Test func aDevicePageAsksForAtMostEightStatements() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let devices = DeviceAPITests()
        let (group, profile) = try await devices.setUp(console)
        try await console.services.database.write {
            _ = try $0.insert(ProfileAssignmentRecord(profileID: profile, groupID: group, assignedAt: Date(), assignedBy: "test"))
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Lobby iPad", supervised: true, group: group, app: "com.example.checkin", console: console)
            try console.services.logs.writeBlocking { connection in
                try LogStore.append([LogViewerTests.line("Badge reader timed out", app: "com.example.checkin")],
                                    from: LogStore.Uploader(id: device.id, name: "Lobby iPad"), receivedAt: console.clock.now, in: connection)
            }
            _ = try await admin.get("/devices/\(device.id)")
            #expect(try await admin.post("/devices/\(device.id)/notes", ["body": "Badge reader replaced."]).status == .seeOther)
            // The first visit fills the caches; the page after it is every later visit.
            _ = try await admin.get("/devices/\(device.id)")

            let tally = StatementTally()
            let page = try await tally.counting { try await admin.get("/devices/\(device.id)") }
            #expect(page.status == .ok)
            for shown in ["Lobby iPad", "Lobby kiosks", "Check-in", "Badge reader timed out", "Badge reader replaced.", "Single App Mode"] {
                #expect(page.body.contains(shown), "the page shows \(shown)")
            }
            #expect(tally.statements <= Self.bound, "\(tally.statements) statements for one device page")
            // The session, the console's snapshot and the log store's.
            #expect(tally.transactions == 3)
        }
    }

    /// The session with its user (1); a page of profiles with how many there are (1). (Before: 4.)
    static let profileListBound = 2

    @Test func theProfileListAsksForAtMostTwoStatements() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let store = ProfileStore(database: console.services.database, now: { Date() })
        for name in ["Lobby", "Ward", "Exam hall"] {
            _ = try await store.create(identifier: "com.example.\(name.lowercased().filter(\.isLetter))",
                                       content: ProfileContent(name: name), by: .system)
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            _ = try await admin.get("/profiles")
            let tally = StatementTally()
            let page = try await tally.counting { try await admin.get("/profiles") }
            #expect(page.status == .ok && page.body.contains("Exam hall") && page.body.contains("Ward"))
            #expect(tally.statements <= Self.profileListBound, "\(tally.statements) statements for the profile list")
        }
    }
}
