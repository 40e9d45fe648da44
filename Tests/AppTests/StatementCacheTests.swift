@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Every query binds its values, so the statements compiled stop growing once each has been
/// seen: two hundred different device pages and check-ins compile no more than a handful.
@Suite struct StatementCacheTests {
    @Test func askingForManyDifferentDevicesCompilesNoNewStatements() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let ids = try console.services.database.writeBlocking { connection in
            let group = try connection.insert(DeviceGroupRecord(name: "Lobby", parentID: nil, createdAt: Date()))
            return try (0..<200).map { index in
                try connection.insert(DeviceRecord(
                    name: "Kiosk \(index)", model: .iPad, osVersion: "18.1",
                    serialNumber: String(format: "DMPX%06d", index), udid: String(format: "00008101-%016X", index),
                    isSupervised: true, owner: "", groupID: group.id, installedApps: [], enrolledAt: Date(), lastCheckInAt: nil)).id
            }
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            // Every reader connection sees every query of the page once.
            for id in ids.prefix(20) { try await admin.get("/devices/\(id)") }
            let warm = try await console.services.database.statementsPrepared()
            for id in ids.dropFirst(20) {
                let page = try await admin.get("/devices/\(id)")
                #expect(page.status == .ok)
            }
            let grown = try await console.services.database.statementsPrepared() - warm
            // A query with a value written into its text would compile 180 new statements here.
            #expect(grown < 20, "\(grown) statements compiled for 180 more device pages")
        }
    }
}
