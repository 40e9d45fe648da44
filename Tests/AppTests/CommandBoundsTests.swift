@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

/// What a script queues is read field by field — a field the command does not read is refused,
/// not ignored — and what a device answers is kept within bounds, however much it sends.
@Suite struct CommandBoundsTests {
    let api = APITests()

    func enrolledKiosk(_ console: TestConsole, _ client: any TestClientProtocol) async throws -> (Browser, DeviceAPITests.Enrolled) {
        let admin = Browser(client)
        try await admin.signIn("ann@example.com", password: TestConsole.password)
        return (admin, try await DeviceAPITests().enroll(admin, name: "Kiosk", supervised: true, group: nil, app: nil, console: console))
    }

    @Test func aFieldTheCommandDoesNotReadIsRefusedNamingIt() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let admin = try await api.token(console, role: .admin)
        try await console.test { client in
            let (_, device) = try await enrolledKiosk(console, client)
            let path = "/api/v1/devices/\(device.id)/commands"
            let cases = [(#"{"requestType": "Settings", "captureMinutes": 30}"#, "captureMinutes"),
                         (#"{"requestType": "RequestLogs", "apps": ["com.example.app"]}"#, "apps"),
                         (#"{"requestType": "RestartDevice", "deleteFeedback": false}"#, "deleteFeedback")]
            for (body, field) in cases {
                let refused = try await api.call(client, .post, path, token: admin, body: body)
                #expect(refused.status == .unprocessableContent, "\(body)")
                #expect((refused.json["error"] as? [String: Any])?["field"] as? String == field)
            }
            let tooMany = (0...DeviceCommand.maximumApps).map { "\"com.example.app\($0)\"" }.joined(separator: ",")
            let many = try await api.call(client, .post, path, token: admin, body: #"{"requestType": "ManagedApplicationFeedback", "apps": [\#(tooMany)]}"#)
            #expect(many.status == .unprocessableContent)
            #expect(try await console.services.database.read { try $0.fetch(DeviceCommandRecord.query()) }.isEmpty)

            let null = try await api.call(client, .post, path, token: admin, body: #"{"requestType": "Settings", "captureMinutes": null}"#)
            #expect(null.status == .created, "null is absent, as the document says")
            let capture = try await api.call(client, .post, path, token: admin, body: #"{"requestType": "RequestLogs", "captureMinutes": 30}"#)
            #expect(capture.status == .created)
        }
    }

    @Test func aLongErrorChainIsKeptWithinTheAnswersBound() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, device) = try await enrolledKiosk(console, client)
            _ = try await admin.get("/devices/\(device.id)")
            _ = try await admin.post("/devices/\(device.id)/commands", ["requestType": "RestartDevice"])
            let commands = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let uuid = try #require((commands.json["commands"] as? [[String: Any]])?.first?["CommandUUID"] as? String)
            let item = #"{"ErrorCode": 1, "LocalizedDescription": "\#(String(repeating: "Restart blocked by an app. ", count: 40))"}"#
            let chain = Array(repeating: item, count: 900).joined(separator: ",")
            let answered = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token,
                                              body: #"{"Status": "Error", "ErrorChain": [\#(chain)]}"#)
            #expect(answered.status == .ok)
            let stored = try #require(try await console.services.database.read { try $0.fetchOne(DeviceCommandRecord.query()) })
            #expect(stored.resultSummary.count <= CommandReplyBody.maximumSummary)
            #expect(stored.resultSummary.hasPrefix("Restart blocked by an app."))
            #expect(stored.resultSummary.hasSuffix("and 897 more errors"), "\(stored.resultSummary.suffix(40))")
            let page = try await admin.get("/devices/\(device.id)")
            #expect(page.body.utf8.count < 200_000)
        }
    }

    @Test func feedbackBeyondItsBoundsIsRefusedWhole() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        try await console.test { client in
            let (admin, device) = try await enrolledKiosk(console, client)
            _ = try await admin.get("/devices/\(device.id)")
            _ = try await admin.post("/devices/\(device.id)/commands", ["requestType": "ManagedApplicationFeedback", "apps": ""])
            let commands = try await api.call(client, .get, "/api/v1/device/commands", token: device.token)
            let uuid = try #require((commands.json["commands"] as? [[String: Any]])?.first?["CommandUUID"] as? String)
            func reply(_ feedback: [String]) -> String {
                #"{"Status": "Acknowledged", "ManagedApplicationFeedback": [\#(feedback.joined(separator: ","))]}"#
            }
            let longValue = #"{"Identifier": "com.example.a", "Feedback": {"status": "\#(String(repeating: "x", count: 1_001))"}}"#
            let longKey = #"{"Identifier": "com.example.a", "Feedback": {"\#(String(repeating: "k", count: 129))": 1}}"#
            let bulky = (0..<100).map { app in
                #"{"Identifier": "com.example.a\#(app)", "Feedback": {"status": "\#(String(repeating: "y", count: 900))"}}"#
            }
            for (body, field) in [(reply([longValue]), "ManagedApplicationFeedback.0.Feedback.status"),
                                  (reply([longKey]), "ManagedApplicationFeedback.0.Feedback." + String(repeating: "k", count: 79) + "…"),
                                  (reply(bulky), "ManagedApplicationFeedback")] {
                let refused = try await api.call(client, .post, "/api/v1/device/commands/\(uuid)", token: device.token, body: body)
                #expect(refused.status == .unprocessableContent)
                #expect((refused.json["error"] as? [String: Any])?["field"] as? String == field)
            }
            let command = try #require(try await console.services.database.read { try $0.fetchOne(DeviceCommandRecord.query()) })
            #expect(command.status == .sent, "still waiting for an answer the console can take")
            #expect(try await console.services.database.read { try $0.fetch(AppFeedbackRecord.query()) }.isEmpty)
        }
    }
}
