@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// The one command queue, driven as people and devices drive it: a device is handed its
/// commands before it may report on them, NotNow is counted and sent again, waiting commands
/// can be taken back by whoever may send them, an admin can empty the queue, and a command
/// nobody ran expires.
@Suite struct CommandQueueTests {
    let api = APITests()
    let devices = DeviceAPITests()

    func commands(_ console: TestConsole) throws -> [DeviceCommandRecord] {
        try console.services.database.readBlocking { try $0.fetch(DeviceCommandRecord.query().order(by: "id")) }
    }

    /// A console with `others` as users, and an admin signed in on the page of a device
    /// enrolled as the simulator enrolls one.
    func withDevice(_ name: String, others: [(String, Role)] = [],
                    _ body: @escaping @Sendable (any TestClientProtocol, Browser, DeviceAPITests.Enrolled, TestConsole) async throws -> Void) async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        for (email, role) in others { try await console.addUser(email, role: role) }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: name, supervised: true, group: nil, app: nil, console: console)
            try await admin.get("/devices/\(device.id)")
            try await body(client, admin, device, console)
        }
    }

    @Test func aDeviceReportsOnlyOnCommandsItWasSent() async throws {
        try await withDevice("Kiosk") { client, admin, device, console in
            try await admin.post("/devices/\(device.id)/commands", ["requestType": "RestartDevice"])
            let uuid = try #require(try commands(console).first?.uuid)

            // A report for a command the device was never handed is a replay or a guess.
            let early = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: #"{"Status": "Acknowledged"}"#)
            #expect(early.status == .conflict)
            #expect(api.errorCode(early.json) == "command_not_sent")
            #expect(try commands(console).map(\.status) == [.queued])

            _ = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            #expect(try commands(console).map(\.status) == [.sent])
            let answered = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: #"{"Status": "CommandFormatError"}"#)
            #expect(answered.status == .ok)
            #expect(try commands(console).map(\.status) == [.formatError])
            let twice = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: #"{"Status": "Acknowledged"}"#)
            #expect(api.errorCode(twice.json) == "command_finished")
            #expect(try commands(console).map(\.status) == [.formatError])
        }
    }

    @Test func notNowIsCountedAndTheCommandIsSentAgain() async throws {
        try await withDevice("Ward iPad", others: [("hal@example.com", Role.helpdesk)]) { client, admin, device, console in
            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            try await desk.get("/devices/\(device.id)")
            try await desk.post("/devices/\(device.id)/commands", ["requestType": "RequestLogs"])
            for _ in 0..<2 {
                let handed = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
                let uuid = try #require(((handed.json["commands"] as? [[String: Any]])?.first)?["CommandUUID"] as? String)
                _ = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: #"{"Status": "NotNow"}"#)
            }
            let command = try #require(try commands(console).first)
            #expect(command.status == .notNow && command.notNowCount == 2 && command.firstNotNowAt != nil)
            let again = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let envelope = try #require((again.json["commands"] as? [[String: Any]])?.first)
            #expect(envelope["Status"] as? String == "NotNow", "offered again, saying it was put off")
            let page = try await desk.get("/devices/\(device.id)")
            #expect(page.body.contains("Sent (not now 2 times, first"), "the page says how often the device put it off")
            let listed = try await api.call(client, .get, "/api/v1/devices/\(device.id)/commands", token: try await api.token(console, role: .helpdesk))
            let answer = try #require((listed.json["commands"] as? [[String: Any]])?.first)
            #expect(answer["notNowCount"] as? Int == 2)
            #expect(answer["status"] as? String == "sent")
        }
    }

    @Test func whoeverMaySendACommandMayTakeItBack() async throws {
        try await withDevice("Exam iPad", others: [("hal@example.com", Role.helpdesk), ("vic@example.com", .viewer)]) { client, admin, device, console in
            try await admin.post("/devices/\(device.id)/commands", ["requestType": "Settings"])
            try await admin.post("/devices/\(device.id)/commands", ["requestType": "RestartDevice"])
            let (settings, restart) = try { let all = try commands(console); return (all[0].uuid, all[1].uuid) }()

            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            let page = try await desk.get("/devices/\(device.id)")
            #expect(page.body.contains("/devices/\(device.id)/commands/\(restart)/cancel"))
            #expect(!page.body.contains("/devices/\(device.id)/commands/\(settings)/cancel"), "app configuration is an admin's to send and to take back")
            #expect(!page.body.contains("id=\"clear-commands\""))
            let refused = try await desk.post("/devices/\(device.id)/commands/\(settings)/cancel")
            #expect(refused.status == .forbidden)
            try await desk.get("/devices/\(device.id)")
            let cancelled = try await desk.post("/devices/\(device.id)/commands/\(restart)/cancel", ["back": "/devices/\(device.id)"])
            #expect(cancelled.status == .seeOther && cancelled.location == "/devices/\(device.id)")
            #expect(try commands(console).map(\.status) == [.queued, .cancelled])

            let viewer = Browser(client)
            try await viewer.signIn("vic@example.com", password: TestConsole.password)
            try await viewer.get("/devices/\(device.id)")
            #expect(try await viewer.post("/devices/\(device.id)/commands/\(settings)/cancel").status == .forbidden)
            try await desk.get("/devices/\(device.id)")
            let unknown = try await desk.post("/devices/\(device.id)/commands/\(UUID().uuidString)/cancel")
            #expect(unknown.status == .notFound)

            // The device never hears of a cancelled command, and cannot report on it.
            let handed = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            #expect((handed.json["commands"] as? [[String: Any]])?.compactMap { $0["CommandUUID"] as? String } == [settings])
            let late = try await api.call(client, .post, "/api/v1/device/commands/\(restart)", token: device.token, body: #"{"Status": "Acknowledged"}"#)
            #expect(api.errorCode(late.json) == "command_finished")
            let entries = try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .equal, AuditAction.deviceCommandCancelled.rawValue)) }
            #expect(entries.map(\.actorEmail) == ["hal@example.com"])
        }
    }

    @Test func anAdminEmptiesTheQueueAndHelpdeskCannot() async throws {
        try await withDevice("Sales iPhone", others: [("hal@example.com", Role.helpdesk)]) { client, admin, device, console in
            for type in ["RestartDevice", "RequestLogs", "Settings"] {
                try await admin.post("/devices/\(device.id)/commands", ["requestType": type])
            }
            _ = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let first = try #require(try commands(console).first?.uuid)
            _ = try await api.call(client, .post, "/api/v1/device/commands/\(first)", token: device.token, body: #"{"Status": "Acknowledged"}"#)

            let desk = Browser(client)
            try await desk.signIn("hal@example.com", password: TestConsole.password)
            try await desk.get("/devices/\(device.id)")
            #expect(try await desk.post("/devices/\(device.id)/commands/clear").status == .forbidden)
            #expect(try commands(console).map(\.status) == [.acknowledged, .sent, .sent])

            let page = try await admin.get("/devices/\(device.id)")
            #expect(page.body.contains("id=\"clear-commands\""))
            let cleared = try await admin.post("/devices/\(device.id)/commands/clear")
            #expect(cleared.status == .seeOther)
            #expect(try commands(console).map(\.status) == [.acknowledged, .cancelled, .cancelled], "what the device finished stays as it was")
            let entries = try await console.services.database.read { try $0.fetch(AuditEvent.query().filter("action", .equal, AuditAction.deviceCommandsCleared.rawValue)) }
            #expect(entries.map(\.after) == ["2 cancelled"])
            #expect(!(try await admin.get("/devices/\(device.id)")).body.contains("id=\"clear-commands\""), "nothing waits: nothing to clear")
        }
    }

    @Test func aCommandNobodyRanExpires() async throws {
        try await withDevice("Depot iPad") { client, admin, device, console in
            try await admin.post("/devices/\(device.id)/commands", ["requestType": "RestartDevice"])
            console.clock.advance(by: DeviceCommand.lifetime + 60)
            let handed = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            #expect((handed.json["commands"] as? [[String: Any]])?.isEmpty == true, "a month-old restart is not run")
            let command = try #require(try commands(console).first)
            #expect(command.status == .expired && command.resultSummary.hasPrefix("Expired"))
        }
    }
}

/// Migration 26 on a file made before it: every command keeps its status and answer, the new
/// statuses are allowed, and the id of a deleted newest command is not given again.
@Suite struct CommandQueueMigrationTests {
    @Test(.enabled(if: TestBackend.current == .sqlite)) func anOlderFileKeepsItsCommandsAndTheirIds() async throws {
        let folder = testRunDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder.appendingPathComponent("console.sqlite").path)
        try Migrator(Schema.migrations.filter { $0.version < Schema.commandQueue.version }).migrate(database)
        let deleted = try await database.write { connection -> Int64 in
            let device = try connection.insert(IdsNeverReusedTests.device("Ward iPad"))
            for (uuid, status) in [("A", "acknowledged"), ("B", "notNow"), ("C", "queued")] {
                _ = try connection.execute("""
                    INSERT INTO device_commands (uuid, deviceID, requestType, parameters, status, queuedAt, queuedBy, resultSummary)
                    VALUES (\(uuid), \(device.id), 'RestartDevice', '{"requestType":"RestartDevice","apps":[],"deleteFeedback":false}', \(status), 0, 'hal', 'Done')
                    """)
            }
            let newest = try #require(try connection.scalar("SELECT max(id) FROM device_commands", as: Int64.self))
            _ = try connection.execute("DELETE FROM device_commands WHERE id = \(newest)")
            return newest
        }
        try Migrator(Schema.migrations).migrate(database)
        try await database.write { connection in
            let kept = try connection.fetch(DeviceCommandRecord.query().order(by: "id"))
            #expect(kept.map(\.uuid) == ["A", "B"])
            #expect(kept.map(\.status) == [.acknowledged, .notNow])
            #expect(kept.map(\.command) == [DeviceCommand(requestType: .restartDevice), DeviceCommand(requestType: .restartDevice)],
                    "values stored with their type beside them read as before")
            #expect(kept.allSatisfy { $0.notNowCount == 0 && $0.sentAt == nil })
            var next = DeviceCommandRecord(deviceID: kept[0].deviceID, command: DeviceCommand(requestType: .requestLogs), queuedAt: Date(), queuedBy: "hal")
            try next.progress.handOut(at: Date())
            let inserted = try connection.insert(next)
            #expect(inserted.id.rawValue > deleted, "the deleted newest command's id is not given again")
            #expect(try connection.scalar("PRAGMA integrity_check", as: String.self) == "ok")
            let plan = try connection.rows(SQL(verbatim: "EXPLAIN QUERY PLAN ") + CommandQueue.waiting(for: kept[0].deviceID).sql)
            #expect(try plan.map { try $0.get("detail", as: String.self) }.joined().contains("device_commands_waiting"),
                    "the waiting commands are read through their partial index")
        }
    }
}

/// `DELETE /api/v1/devices/{id}/commands/{uuid}`: a script takes back a waiting command with
/// the role that may send it.
@Suite struct CommandCancelAPITests {
    let api = APITests()

    @Test func aScriptCancelsAWaitingCommandWithTheRoleThatMaySendIt() async throws {
        let console = try await TestConsole.make()
        let device = try await console.services.database.write { try $0.insert(IdsNeverReusedTests.device("Lobby iPad")) }
        let user = try await console.addUser("ann@example.com", role: .admin)
        let restart = try await console.services.commands.enqueue(DeviceCommand(requestType: .restartDevice), for: device.id, by: user)
        let settings = try await console.services.commands.enqueue(DeviceCommand(requestType: .settings), for: device.id, by: user)
        let helpdesk = try await api.token(console, role: .helpdesk)
        try await console.test { client in
            let path = "/api/v1/devices/\(device.id)/commands/"
            let forbidden = try await api.call(client, .delete, path + settings.uuid, token: helpdesk)
            #expect(forbidden.status == .forbidden)
            let cancelled = try await api.call(client, .delete, path + restart.uuid, token: helpdesk)
            #expect(cancelled.status == .ok)
            #expect(cancelled.json["status"] as? String == "cancelled")
            let again = try await api.call(client, .delete, path + restart.uuid, token: helpdesk)
            #expect(again.status == .conflict && api.errorCode(again.json) == "command_finished")
            let unknown = try await api.call(client, .delete, path + UUID().uuidString, token: helpdesk)
            #expect(unknown.status == .notFound && api.errorCode(unknown.json) == "unknown_command")
            let otherDevice = try await console.services.database.write { try $0.insert(IdsNeverReusedTests.device("Ward iPad")) }
            let elsewhere = try await api.call(client, .delete, "/api/v1/devices/\(otherDevice.id)/commands/\(settings.uuid)", token: try await api.token(console, role: .admin))
            #expect(elsewhere.status == .notFound, "a command is cancelled only through its own device")
        }
        let statuses = try await console.services.database.read { try $0.fetch(DeviceCommandRecord.query().order(by: "id")).map(\.status) }
        #expect(statuses == [.cancelled, .queued])
    }
}
