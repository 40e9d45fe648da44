@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// The event stream API clients watch: timeline events with ids to resume from, a status event
/// when compliance, lock or screen changes, changes made while the stream is open, and
/// refused parameters.
@Suite struct SimulatorEventStreamTests {
    let api = APITests()
    let devices = DeviceAPITests()

    struct Message {
        let id: String?
        let event: String
        let data: [String: Any]
    }

    /// Splits an SSE body into its messages (comments and the retry line left out).
    static func messages(_ body: String) -> [Message] {
        body.components(separatedBy: "\n\n").compactMap { block in
            var id: String?, event = "message", data = ""
            for line in block.split(separator: "\n") {
                if line.hasPrefix("id: ") { id = String(line.dropFirst(4)) }
                if line.hasPrefix("event: ") { event = String(line.dropFirst(7)) }
                if line.hasPrefix("data: ") { data += line.dropFirst(6) }
            }
            guard !data.isEmpty, let json = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] else { return nil }
            return Message(id: id, event: event, data: json)
        }
    }

    func stream(_ client: any TestClientProtocol, _ path: String, token: String, headers extra: HTTPFields = [:]) async throws -> (HTTPResponse.Status, [Message]) {
        var headers = extra
        headers[.authorization] = "Bearer \(token)"
        let response = try await client.execute(uri: path, method: .get, headers: headers, body: nil)
        return (response.status, Self.messages(String(buffer: response.body)))
    }

    @Test func eventsAndStatusChangesReachAStreamAndItResumes() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        let viewer = try await api.token(console, role: .viewer)
        try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Notes", bundleID: "com.example.notes", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await devices.enroll(admin, name: "Ward iPad", supervised: true, group: nil, app: "com.example.notes", console: console)
            let actions = "/api/v1/simulator/\(device.udid)/actions"
            let events = "/api/v1/simulator/\(device.udid)/events"
            _ = try await api.call(client, .post, actions, token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.notes"}"#)

            // From the start: every event so far with its id, then the status.
            let (status, all) = try await stream(client, "\(events)?after=0&timeout=1", token: viewer)
            #expect(status == .ok)
            let timeline = all.filter { $0.event == "event" }
            #expect(timeline.last?.data["action"] as? String == "Open Notes")
            #expect(timeline.allSatisfy { $0.id != nil && $0.id == ($0.data["id"] as? Int).map(String.init) })
            let first = try #require(all.first { $0.event == "status" })
            #expect((first.data["screen"] as? [String: Any])?["kind"] as? String == "app")
            #expect((first.data["compliance"] as? [String: Any])?["state"] as? String == "compliant")

            // A change while the stream is open arrives on it, with the status it caused. A busy
            // machine may take longer than the stream's 5 s to deliver it: then the next stream,
            // resumed from the same id, must bring it — waiting for the event, not for a window.
            let lastID = try #require(timeline.last?.id)
            let resumed: HTTPFields = [HTTPField.Name("Last-Event-ID")!: lastID]
            async let live = stream(client, "\(events)?timeout=5", token: viewer, headers: resumed)
            try await console.untilAStreamListens()
            _ = try await api.call(client, .post, actions, token: helpdesk, body: #"{"action": "home"}"#)
            var streams = [try await live.1]
            let deadline = ContinuousClock.now + .seconds(180)
            while !streams.joined().contains(where: { $0.event == "event" }), ContinuousClock.now < deadline {
                streams.append(try await stream(client, "\(events)?timeout=5", token: viewer, headers: resumed).1)
            }
            let later = Array(streams.joined())
            #expect(later.filter { $0.event == "event" }.map { $0.data["action"] as? String } == ["Home"], "seen: \(later.map(\.event))")
            let statuses = later.filter { $0.event == "status" }.map { ($0.data["screen"] as? [String: Any])?["kind"] as? String }
            if streams.count == 1 {
                #expect(statuses == ["app", "home"])
            } else {
                #expect(statuses.last == "home", "a resumed stream starts with the status as it is now")
            }

            // Bad parameters and no token are refused before any stream starts.
            for query in ["after=-1", "after=x", "timeout=0", "timeout=301"] {
                let refused = try await api.call(client, .get, "\(events)?\(query)", token: viewer)
                #expect(refused.status == .badRequest, "\(query)")
                #expect(api.errorCode(refused.json) == "invalid_parameter")
            }
            #expect(try await api.call(client, .get, events, token: nil).status == .unauthorized)
            #expect(try await api.call(client, .get, "/api/v1/simulator/NOPE/events?timeout=1", token: viewer).status == .notFound)
        }
    }
}
