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
    /// The log store refuses to change a line's device, as on a failing disk.
    func refuseLineChanges(in logs: Database) throws {
        try logs.withWriterOutsideTransactionBlocking { connection in
            if connection.dialect == .postgres {
                try connection.execute(script: """
                    CREATE FUNCTION refuse_line_change() RETURNS trigger LANGUAGE plpgsql AS $$
                    BEGIN RAISE EXCEPTION 'the disk is failing'; END $$;
                    CREATE TRIGGER refuse_line_change BEFORE UPDATE ON device_logs FOR EACH ROW EXECUTE FUNCTION refuse_line_change();
                    """)
            } else {
                try connection.execute(script: """
                    CREATE TRIGGER refuse_line_change BEFORE UPDATE ON device_logs BEGIN SELECT RAISE(ABORT, 'the disk is failing'); END;
                    """)
            }
        }
    }

    func allowLineChanges(in logs: Database) throws {
        try logs.withWriterOutsideTransactionBlocking { connection in
            try connection.execute(script: connection.dialect == .postgres
                ? "DROP TRIGGER refuse_line_change ON device_logs; DROP FUNCTION refuse_line_change();"
                : "DROP TRIGGER refuse_line_change;")
        }
    }

    @Test func aRemovalStandsWhenItsLinesCannotBeToldAndTheNextStartTellsThem() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let device = try LogViewerTests.seed(console, [LogViewerTests.line("Before the removal")])
        try refuseLineChanges(in: console.services.logs)
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
        try allowLineChanges(in: console.services.logs)
        try await LogDeviceReconciliation(logs: console.services.logs, console: console.services.database).run()
        let line = try #require(try await console.services.logs.read { try $0.fetchOne(DeviceLogRecord.query()) })
        #expect(line.deviceID == nil && line.deviceName == "Clinic iPad 3")
    }
}
