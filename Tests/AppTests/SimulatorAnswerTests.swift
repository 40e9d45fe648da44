@testable import App
import Domain
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Storage
import Testing

/// The simulator API answers with the types its document is read from; its event stream is an
/// `EventStream`, framed as SSE, whose events' data are those types too.
@Suite struct SimulatorAnswerTests {
    let api = APITests()

    func raw(_ client: any TestClientProtocol, _ method: HTTPRequest.Method, _ path: String, token: String, body: String? = nil) async throws -> (HTTPResponse, Data) {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        if body != nil { headers[.contentType] = "application/json" }
        let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
        return (response.head, Data(response.body.readableBytesView))
    }

    @Test func theStateTheStreamAndAnActionAnswerWithTheDocumentedTypes() async throws {
        let console = try await TestConsole.make()
        try await console.addUser("ann@example.com", role: .admin)
        let helpdesk = try await api.token(console, role: .helpdesk)
        try console.services.database.writeBlocking { connection in
            _ = try connection.insert(AppRecord(name: "Notes", bundleID: "com.example.notes", isManaged: true, isSDKBuilt: true,
                                                hasAssessmentEntitlement: false, iconColor: "", createdAt: Date()))
        }
        try await console.test { client in
            let admin = Browser(client)
            try await admin.signIn("ann@example.com", password: TestConsole.password)
            let device = try await DeviceAPITests().enroll(admin, name: "Ward iPad", supervised: true, group: nil, app: "com.example.notes", console: console)
            let base = "/api/v1/simulator/\(device.udid)"

            let (_, acted) = try await raw(client, .post, "\(base)/actions", token: helpdesk, body: #"{"action": "launchApp", "app": "com.example.notes"}"#)
            let action = try APIAnswerCoding.decoder.decode(SimulatorActionAnswer.self, from: acted)
            #expect(action.event.id == nil && action.event.result == .done && action.state.screen.kind == .app)
            let (_, read) = try await raw(client, .get, base, token: helpdesk)
            let state = try APIAnswerCoding.decoder.decode(SimulatorStateAnswer.self, from: read)
            #expect(state.revision == action.state.revision && state.apps.map(\.bundleID).contains("com.example.notes"))
            let object = try #require(try JSONSerialization.jsonObject(with: read) as? [String: Any])
            #expect(object["lock"] is NSNull && object["pasteboard"] is NSNull, "an empty field is null, not left out")

            let (head, streamed) = try await raw(client, .get, "\(base)/events?after=0&timeout=1", token: helpdesk)
            #expect(head.headerFields[.contentType] == "text/event-stream" && head.headerFields[.cacheControl] == "no-cache")
            let text = String(decoding: streamed, as: UTF8.self)
            #expect(text.hasPrefix("retry: 1000\n\n"))
            var sawEvent = false, sawStatus = false
            for block in text.components(separatedBy: "\n\n") where block.contains("event: ") {
                let lines = block.split(separator: "\n").map(String.init)
                let data = Data(try #require(lines.last { $0.hasPrefix("data: ") }).dropFirst(6).utf8)
                if lines.contains("event: event") {
                    let event = try APIAnswerCoding.decoder.decode(SimulatorEventAnswer.self, from: data)
                    #expect(lines.first == "id: \(try #require(event.id))", "the id line comes first and names the event's id")
                    sawEvent = true
                } else if lines.contains("event: status") {
                    #expect(try APIAnswerCoding.decoder.decode(SimulatorStatusAnswer.self, from: data).screen.kind == .app)
                    sawStatus = true
                }
            }
            #expect(sawEvent && sawStatus)
        }
    }

    @Test func theDocumentDescribesTheStreamByOneEventAndItsKinds() async throws {
        let paths = try #require((try await TestConsole.openAPIDocument())["paths"] as? [String: Any])
        let operation = try #require((paths["/api/v1/simulator/{udid}/events"] as? [String: Any])?["get"] as? [String: Any])
        let ok = try #require((operation["responses"] as? [String: Any])?["200"] as? [String: Any])
        let content = try #require(ok["content"] as? [String: Any])
        #expect(Array(content.keys) == ["text/event-stream"])
        let event = try #require((content["text/event-stream"] as? [String: Any])?["schema"] as? [String: Any])
        #expect(Set(((event["properties"] as? [String: Any]) ?? [:]).keys) == ["event", "data", "id", "retry"])
        let description = try #require(ok["description"] as? String)
        for kind in [SimulatorStreamEvent.event(SimulatorEventAnswer(SimulatorEvent(at: Date(), action: "", rule: "", result: .done, message: ""))), .gone] {
            #expect(description.contains("`event: \(kind.name)`"))
        }
        let parameters = try #require(operation["parameters"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(parameters == ["udid", "after", "timeout"])
    }

    @Test func aFieldThatMayBeNullKeepsNullBesideTheValuesItsNoteAllows() throws {
        let reader = SchemaReader()
        _ = try reader.schema(of: SimulatorActionBody.self)
        let schema = try #require(reader.components[SimulatorActionBody.schemaName])
        for field in ["control", "feature", "network", "level", "mode"] {
            #expect(schema.properties?[field]?.values?.contains(.null) == true, "\(field): null is accepted as absent")
        }
        #expect(schema.properties?["action"]?.values?.contains(.null) == false)
    }
}
