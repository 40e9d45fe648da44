@testable import App
import Domain
import Foundation
import HTTPTypes
import Storage
import Testing

/// Removing a device is one write in the console's file; clearing its id from its log lines is a
/// second, in the log store's. When that second write fails the device is still removed, and
/// the person is told so, not shown an error for a removal that happened.
@Suite struct DeviceRemovalTests {
    @Test func aRemovalStandsWhenItsLinesCannotBeClearedAndTheNextStartClearsThem() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let device = try LogViewerTests.seed(console, [LogViewerTests.line("Before the removal")])
        let refused = RefusedWrites("UPDATE", on: "device_logs")
        try refused.begin(in: console.services.logs)
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            _ = try await admin.get("/devices/\(device)")
            let removed = try await admin.post("/devices/\(device)/delete")
            #expect(removed.status == .seeOther)
            #expect(try await admin.get("/devices").body.contains("Removed Clinic iPad 3."))
        }
        #expect(try await console.services.database.read { try $0.find(DeviceRecord.self, id: device) } == nil)
        // The line keeps the removed device's id until the next start, which no later device can
        // take (ids are never given twice); then it is cleared.
        try refused.end(in: console.services.logs)
        try await LogDeviceReconciliation(logs: console.services.logs, console: console.services.database).run()
        let line = try #require(try await console.services.logs.read { try $0.fetchOne(DeviceLogRecord.query()) })
        #expect(line.deviceID == nil && line.deviceName == "Clinic iPad 3")
    }
}
